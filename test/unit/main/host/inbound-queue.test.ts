import { describe, expect, it } from 'vitest';
import { InboundQueue } from '../../../../main/host/inbound-queue';

async function readAll<T>(queue: InboundQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of queue) out.push(item);
  return out;
}

describe('inbound-queue', () => {
  describe('InboundQueue', () => {
    it('accepts up to its limit at once, then holds each push until the reader takes one', async () => {
      const queue = new InboundQueue<number>(2, 8);
      const outcomes: string[] = [];
      const pushes = [1, 2, 3, 4].map((n) => queue.push(n).then((o) => outcomes.push(`${n}:${o}`)));
      await Promise.resolve();
      expect(outcomes).toEqual(['1:accepted', '2:accepted']);
      const iterator = queue[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({ value: 1, done: false });
      await Promise.resolve();
      expect(outcomes).toEqual(['1:accepted', '2:accepted', '3:accepted']);
      queue.end();
      expect(await readAll({ [Symbol.asyncIterator]: () => iterator } as InboundQueue<number>)).toEqual([2, 3, 4]);
      await Promise.all(pushes);
      expect(queue.highWater).toBe(2);
    });

    it('ends after what was pushed before end(), and refuses pushes after it', async () => {
      const queue = new InboundQueue<string>(4, 4);
      await queue.push('a');
      queue.end();
      expect(await queue.push('b')).toBe('closed');
      expect(await readAll(queue)).toEqual(['a']);
    });

    it('abort() ends a waiting reader at once and tells waiting pushes the session ended', async () => {
      const queue = new InboundQueue<number>(1, 4);
      await queue.push(1);
      const waiting = queue.push(2);
      queue.abort();
      expect(await waiting).toBe('ended');
      expect(await readAll(queue)).toEqual([]);
      expect(await queue.push(3)).toBe('ended');
    });

    it('answers overflow past the waiting limit instead of holding more', async () => {
      const queue = new InboundQueue<number>(1, 1);
      await queue.push(1);
      void queue.push(2);
      expect(await queue.push(3)).toBe('overflow');
    });

    it('a reader that stops early (break) ends the queue', async () => {
      const queue = new InboundQueue<number>(4, 4);
      await queue.push(1);
      await queue.push(2);
      for await (const item of queue) {
        expect(item).toBe(1);
        break;
      }
      expect(await queue.push(3)).toBe('ended');
    });
  });
});

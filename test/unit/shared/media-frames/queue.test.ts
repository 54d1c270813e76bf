import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameQueue } from '../../../../shared/media-frames';

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('FrameQueue', () => {
  it('drops the oldest frames past its count and counts them', () => {
    const c = clock();
    const dropped: number[] = [];
    const q = new FrameQueue<number>({ maxFrames: 3, maxAgeMs: 1000 }, c.now, (item) => dropped.push(item));
    for (let i = 1; i <= 5; i++) q.push(i);
    expect(dropped).toEqual([1, 2]);
    expect([q.take(), q.take(), q.take(), q.take()]).toEqual([3, 4, 5, undefined]);
    expect(q.stats()).toMatchObject({ pushed: 5, taken: 3, droppedFull: 2, droppedStale: 0, held: 0, highWater: 3 });
  });

  it('drops frames that waited longer than maxAgeMs, keeping the fresh ones', () => {
    const c = clock();
    const q = new FrameQueue<string>({ maxFrames: 10, maxAgeMs: 100 }, c.now);
    q.push('old');
    c.advance(60);
    q.push('newer');
    c.advance(60);
    expect(q.take()).toBe('newer');
    expect(q.stats()).toMatchObject({ droppedStale: 1, taken: 1 });
  });

  it('never holds more than maxFrames, and every push is taken or counted as dropped', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.oneof(fc.constant<'push'>('push'), fc.constant<'take'>('take'), fc.integer({ min: 1, max: 80 })), { maxLength: 300 }),
        (maxFrames, maxAgeMs, ops) => {
          const c = clock();
          const q = new FrameQueue<number>({ maxFrames, maxAgeMs }, c.now);
          const out: number[] = [];
          let n = 0;
          for (const op of ops) {
            if (op === 'push') q.push(n++);
            else if (op === 'take') {
              const v = q.take();
              if (v !== undefined) out.push(v);
            } else c.advance(op);
            expect(q.size).toBeLessThanOrEqual(maxFrames);
          }
          const s = q.stats();
          expect(s.pushed).toBe(n);
          expect(s.taken + s.droppedFull + s.droppedStale + s.held).toBe(n);
          // What comes out is in push order.
          expect(out).toEqual([...out].sort((a, b) => a - b));
        },
      ),
    );
  });

  it('clear() empties without counting a drop', () => {
    const q = new FrameQueue<number>({ maxFrames: 4, maxAgeMs: 10 }, () => 0);
    q.push(1);
    q.push(2);
    expect(q.clear()).toEqual([1, 2]);
    expect(q.stats()).toMatchObject({ droppedFull: 0, droppedStale: 0, held: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { chunkCost, StreamCredits } from '../../../../main/electron/stream-credits';

describe('StreamCredits (Electron IPC back-pressure)', () => {
  it('lets a stream run a window ahead of the page, then waits for acknowledgements', async () => {
    const credits = new StreamCredits({ bytes: 100, chunks: 3 });
    expect(credits.sent('s', 10)).toBeUndefined();
    expect(credits.sent('s', 10)).toBeUndefined();
    expect(credits.sent('s', 10)).toBeUndefined();
    let woke = false;
    const wait = credits.sent('s', 10);
    expect(wait).toBeInstanceOf(Promise);
    void wait!.then(() => (woke = true));
    credits.ack('other', 4, 40);
    await Promise.resolve();
    expect(woke).toBe(false);
    credits.ack('s', 1, 10);
    await Promise.resolve();
    expect(woke).toBe(true);
    expect(credits.outstanding('s')).toEqual({ chunks: 3, bytes: 30 });
  });

  it('counts bytes too: one large chunk past the byte window waits', () => {
    const credits = new StreamCredits({ bytes: 100, chunks: 50 });
    expect(credits.sent('s', 60)).toBeUndefined();
    expect(credits.sent('s', 60)).toBeInstanceOf(Promise);
  });

  it('releases every waiter when the stream ends or the page goes away', async () => {
    const credits = new StreamCredits({ bytes: 1, chunks: 1 });
    credits.sent('a', 5);
    const a = credits.sent('a', 5)!;
    credits.sent('b', 5);
    const b = credits.sent('b', 5)!;
    credits.end('a');
    await a;
    credits.reset();
    await b;
    expect(credits.outstanding('b')).toEqual({ chunks: 0, bytes: 0 });
  });

  it('ignores nonsense acknowledgements (never below zero, never NaN)', () => {
    const credits = new StreamCredits({ bytes: 100, chunks: 3 });
    credits.sent('s', 10);
    credits.ack('s', Number.NaN, 5);
    credits.ack('s', -5, -5);
    expect(credits.outstanding('s')).toEqual({ chunks: 1, bytes: 10 });
    credits.ack('s', 99, 999);
    expect(credits.outstanding('s')).toEqual({ chunks: 0, bytes: 0 });
  });

  it('costs a chunk by its bytes and strings', () => {
    expect(chunkCost(new Uint8Array(1000))).toBe(1000);
    expect(chunkCost({ seq: 1, data: new Uint8Array(1000) })).toBe(64 + 8 + 1000);
    expect(chunkCost('abc')).toBe(3);
  });
});

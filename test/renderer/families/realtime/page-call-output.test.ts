/**
 * The model's voice on the page: the call's playback stream (item marks, PCM16 frames, flushes)
 * drives the player, and what was heard of the current item is reported back — as it plays, never
 * past what was sent, and at once after a flush with the player's own count (the truncate's value).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameKind, type MediaFrame } from '@shared/media-frames/frame';
import { PageCallOutput, REPORT_EVERY_MS, type CallPlayer } from '@/families/realtime/stores/page-call-output';

const RATE = 24_000;
let seq = 0;
const data = (obj: unknown): MediaFrame => ({ kind: FrameKind.Data, streamId: 7, seq: seq++, timestamp: 0, payload: new TextEncoder().encode(JSON.stringify(obj)) });
/** 20 ms of PCM16 at RATE, its payload at an odd offset (as inside a packet). */
function audio(): MediaFrame {
  const packet = new Uint8Array(1 + 960);
  return { kind: FrameKind.Audio, streamId: 7, seq: seq++, timestamp: 0, payload: packet.subarray(1) };
}

function fakePlayer(): CallPlayer & { played: number; calls: string[]; samples: number; heardAtFlush: number } {
  const p = {
    played: 0,
    calls: [] as string[],
    samples: 0,
    heardAtFlush: 0,
    enqueue: (pcm: Int16Array) => void (p.samples += pcm.length),
    markItem: () => void p.calls.push('mark'),
    flush: async () => (p.calls.push('flush'), p.heardAtFlush),
    stats: async () => ({ underruns: 0, bufferedMs: 0, playedMs: p.played, state: 'playing' as const }),
    dispose: async () => void p.calls.push('dispose'),
  };
  return p;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('PageCallOutput', () => {
  it("plays an item's frames and reports its heard ms as it plays, never more than was sent", async () => {
    const player = fakePlayer();
    const reports: Array<[string, number, boolean]> = [];
    const out = new PageCallOutput(player, RATE, (...r) => reports.push(r));
    // Something played before this item (an earlier answer): 200 ms on the player's clock.
    for (let i = 0; i < 10; i++) out.onFrame(audio());
    player.played = 200;
    out.onFrame(data({ item: 'item_a' }));
    for (let i = 0; i < 5; i++) out.onFrame(audio());
    expect({ calls: player.calls, samples: player.samples }).toEqual({ calls: ['mark'], samples: 15 * 480 });
    player.played = 260;
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_MS);
    player.played = 900; // the clock ran on past the item's 100 ms sent (say, silence)
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_MS);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_MS * 3);
    expect(reports).toEqual([
      ['item_a', 60, false],
      ['item_a', 100, false],
    ]);
    await out.dispose();
    expect(player.calls.at(-1)).toBe('dispose');
  });

  it('flushes at once on a flush frame and reports what the player says was heard, flushed', async () => {
    const player = fakePlayer();
    const reports: Array<[string, number, boolean]> = [];
    const out = new PageCallOutput(player, RATE, (...r) => reports.push(r));
    out.onFrame(data({ item: 'item_b' }));
    for (let i = 0; i < 50; i++) out.onFrame(audio());
    player.heardAtFlush = 412.6;
    out.onFrame(data({ flush: 'item_b' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(player.calls).toEqual(['mark', 'flush']);
    expect(reports).toEqual([['item_b', 413, true]]);
    // Nothing more is reported for a flushed item.
    player.played = 5_000;
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_MS * 2);
    expect(reports).toHaveLength(1);
    await out.dispose();
  });
});

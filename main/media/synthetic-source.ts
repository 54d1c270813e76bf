/**
 * The `synthetic` media session kind: a timer-paced frame source and a counting sink, the media
 * plane's proof and benchmark load (no devices needed). It sends `frames` frames on its `out`
 * stream, one every `intervalMs`, scheduled against the monotonic clock (frame k is due at
 * start + k·interval, so a late tick does not push the later ones back); each payload starts with
 * the frame's index (u32 BE). Frames pages send on its `in` stream are counted. On stop it
 * reports a `stats` event: send-interval jitter, the inbound receiver's counters and how old
 * inbound frames were on arrival (page -> media latency, on the media process's clock).
 */
import { z } from 'zod';
import { FrameKind } from '../../shared/media-frames/frame';
import { intervalJitter, percentile } from '../../shared/media-frames/stats';
import { defineKind } from './session-kinds';

const MAX_SAMPLES = 100_000;

export const SyntheticOptionsSchema = z
  .object({
    intervalMs: z.number().min(1).max(1000).default(20),
    /** Frames to send; 0 sends none (a sink only). */
    frames: z.number().int().min(0).max(10_000_000).default(50),
    payloadBytes: z.number().int().min(4).max(64 * 1024).default(640),
    /** Hold the first frame until a page subscribes to `out` (so a test's page sees frame 0). */
    waitForSubscriber: z.boolean().default(false),
    /** Emit an `inbound-complete` event once this many frames came in on `in` (tests wait for it, not for time). */
    expectInbound: z.number().int().min(1).optional(),
  })
  .strict();

export interface SyntheticStats {
  sent: number;
  sendJitterMs: { p50: number; p99: number; max: number };
  inbound: { received: number; delivered: number; gaps: number; missing: number; outOfOrder: number; late: number };
  /** Inbound frames whose payload index was not the one expected. */
  corrupt: number;
  inboundAgeMs: { samples: number; p50: number; p95: number; max: number };
}

function push(list: number[], value: number): void {
  if (list.length < MAX_SAMPLES) list.push(value);
}

export const syntheticKind = defineKind({
  kind: 'synthetic',
  options: SyntheticOptionsSchema,
  start(ctx, options) {
    const out = ctx.openOutput('out');
    const sendTimes: number[] = [];
    const ages: number[] = [];
    let corrupt = 0;
    let expectedIndex: number | null = null;
    const input = ctx.openInput('in', (frame, info) => {
      if (frame.payload.byteLength >= 4) {
        const index = new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getUint32(0);
        if (expectedIndex !== null && index !== expectedIndex) corrupt++;
        expectedIndex = index + 1;
      } else corrupt++;
      if (info.ageMs !== undefined) push(ages, info.ageMs);
      if (options.expectInbound !== undefined && input.stats().delivered === options.expectInbound) ctx.event('inbound-complete', { delivered: options.expectInbound });
    });
    let started = ctx.now();
    let waiting = options.waitForSubscriber;
    let sent = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const tick = () => {
      timer = null;
      if (stopped) return;
      if (waiting) {
        if (out.subscribers() === 0) return void (timer = setTimeout(tick, 5));
        waiting = false;
        started = ctx.now();
        ctx.event('source-started', { intervalMs: options.intervalMs, frames: options.frames });
      }
      const now = ctx.now();
      // Send every frame that is due (after a stall: catch up, the receiver sees no gap).
      while (sent < options.frames && started + sent * options.intervalMs <= now) {
        const payload = new Uint8Array(options.payloadBytes);
        new DataView(payload.buffer).setUint32(0, sent);
        payload.fill(sent & 0xff, 4);
        const at = ctx.now();
        out.send(FrameKind.Data, payload, at);
        push(sendTimes, at);
        sent++;
      }
      if (sent >= options.frames) {
        ctx.event('source-done', { sent });
        return;
      }
      timer = setTimeout(tick, Math.max(0, started + sent * options.intervalMs - ctx.now()));
    };
    tick();

    const stats = (): SyntheticStats => {
      const jitter = intervalJitter(sendTimes, options.intervalMs);
      return {
        sent,
        sendJitterMs: { p50: percentile(jitter, 50), p99: percentile(jitter, 99), max: jitter.length ? Math.max(...jitter) : Number.NaN },
        inbound: input.stats(),
        corrupt,
        inboundAgeMs: { samples: ages.length, p50: percentile(ages, 50), p95: percentile(ages, 95), max: ages.length ? Math.max(...ages) : Number.NaN },
      };
    };
    return {
      stop() {
        stopped = true;
        if (timer) clearTimeout(timer);
        ctx.event('stats', stats());
      },
    };
  },
});

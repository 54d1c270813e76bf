/**
 * Clocks. Every side stamps frames with its own monotonic clock (`monotonicMs`: the process's time
 * origin plus `performance.now()`, so it never steps back with the wall clock, and two processes
 * started on one machine read within a few ms of each other). `ClockOffset` then estimates how
 * far another side's clock is from ours, NTP-style: each ping/pong gives
 *
 *   t0 = our send, t1 = their receive, t2 = their send, t3 = our receive
 *   offset = ((t1 - t0) + (t2 - t3)) / 2      (their clock minus ours)
 *   rtt    = (t3 - t0) - (t2 - t1)
 *
 * and the sample with the smallest round trip among the last few is kept: a sample delayed on
 * one leg (a busy event loop) has a large rtt and a skewed offset, and is outvoted.
 */

const perf = (globalThis as unknown as { performance: { now(): number; timeOrigin: number } }).performance;

/** ms, monotonic, comparable across the app's processes up to their ClockOffset. */
export function monotonicMs(): number {
  return perf.timeOrigin + perf.now();
}

export interface ClockSample {
  offset: number;
  rtt: number;
}

export interface ClockEstimate extends ClockSample {
  /** Samples taken in all. */
  samples: number;
}

/** Pong payload: the ping's timestamp, the receive time and the send time (3 × f64 BE). */
export const PONG_PAYLOAD_BYTES = 24;

export function encodePong(pingTimestamp: number, receivedAt: number, sentAt: number): Uint8Array {
  const out = new Uint8Array(PONG_PAYLOAD_BYTES);
  const view = new DataView(out.buffer);
  view.setFloat64(0, pingTimestamp);
  view.setFloat64(8, receivedAt);
  view.setFloat64(16, sentAt);
  return out;
}

/** [t0, t1, t2] from a pong payload, or null when it is not one. */
export function decodePong(payload: Uint8Array): [number, number, number] | null {
  if (payload.byteLength !== PONG_PAYLOAD_BYTES) return null;
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const t = [view.getFloat64(0), view.getFloat64(8), view.getFloat64(16)] as [number, number, number];
  return t.every(Number.isFinite) ? t : null;
}

export class ClockOffset {
  private readonly recent: ClockSample[] = [];
  private count = 0;

  /** `window`: how many recent samples compete for the minimum round trip. */
  constructor(private readonly window = 8) {}

  /** Adds one exchange; a sample that cannot be right (negative round trip) is ignored. Returns the estimate. */
  add(t0: number, t1: number, t2: number, t3: number): ClockEstimate | null {
    const raw = t3 - t0 - (t2 - t1);
    // A round trip below zero is an impossible sample, except for float rounding of a zero one.
    if (!Number.isFinite(raw) || raw < -1e-6 || t3 - t0 < -1e-6 || t2 - t1 < -1e-6) return this.estimate();
    const rtt = Math.max(0, raw);
    this.recent.push({ offset: (t1 - t0 + (t2 - t3)) / 2, rtt });
    if (this.recent.length > this.window) this.recent.shift();
    this.count++;
    return this.estimate();
  }

  /** The min-rtt sample among the recent ones, or null before the first. */
  estimate(): ClockEstimate | null {
    if (this.recent.length === 0) return null;
    let best = this.recent[0];
    for (const s of this.recent) if (s.rtt < best.rtt) best = s;
    return { ...best, samples: this.count };
  }

  /** A time on the other side's clock moved onto ours (null before the first sample). */
  toLocal(remoteMs: number): number | null {
    const e = this.estimate();
    return e ? remoteMs - e.offset : null;
  }
}

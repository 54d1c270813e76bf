/**
 * The speed of a transfer as a person wants it shown: bytes per second over the last couple of
 * seconds (not since the start, which hides a stall; not the last chunk, which jitters).
 */

const WINDOW_MS = 2000;
/**
 * No speed before this much of the transfer has passed: the first progress report comes a few
 * milliseconds in, after a multipart header's worth of bytes, and a speed from that read
 * "163 bytes of 45 MB · 14.5 KB/s · 53 min left" for an upload that took three seconds.
 */
const MIN_SPAN_MS = 400;

export class TransferRate {
  private readonly samples: { t: number; bytes: number }[] = [];

  constructor(private readonly now: () => number = Date.now) {
    this.samples.push({ t: now(), bytes: 0 });
  }

  /** Records the running total of bytes transferred. */
  add(totalBytes: number): void {
    const t = this.now();
    this.samples.push({ t, bytes: totalBytes });
    // Keep one sample older than the window so the window always has a start.
    while (this.samples.length > 2 && this.samples[1]!.t <= t - WINDOW_MS) this.samples.shift();
  }

  /** Bytes per second over the window; 0 (unknown) until MIN_SPAN_MS of the transfer has passed. */
  bytesPerSecond(): number {
    const first = this.samples[0]!;
    const last = this.samples[this.samples.length - 1]!;
    const ms = last.t - first.t;
    return ms >= MIN_SPAN_MS ? Math.round(((last.bytes - first.bytes) * 1000) / ms) : 0;
  }
}

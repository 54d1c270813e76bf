/**
 * Paces and bounds the inputs of a backend whose devices are not paced: ALSA's `file` plugin
 * reads its infile as fast as it is asked and returns garbage past its end. Each input opened
 * through this wrapper delivers at most `boundMs` of the device's audio, no faster than real time
 * (whole periods, as a card's interrupts give them: each tick releases the periods due since the
 * start by performance.now() and is scheduled for the next period's boundary, so a late tick does
 * not push the ones after it and the rate stays exact), and closes the device once it has that much. After it: `silence` (a quiet room,
 * the stream goes on) or `quiet` (nothing more, as an unplugged card does: Capture's stall
 * watchdog then reports it). Used by tests and benchmarks through the media process's test hook.
 */
import type { AudioError, AudioResult } from '../../shared/audio/errors';
import type { AudioBackend, InputStream } from './types';

/** How early a tick may fire and still release the period due at its boundary (ms). */
const EARLY_MS = 2;

export interface PacedInputOptions {
  boundMs: number;
  after: 'silence' | 'quiet';
  periodMs?: number;
}

export function paceInputs(backend: AudioBackend, options: PacedInputOptions): AudioBackend {
  return {
    name: `${backend.name} (paced, ${options.boundMs} ms then ${options.after})`,
    listDevices: () => backend.listDevices(),
    openOutput: (open) => backend.openOutput(open),
    openInput: (open): AudioResult<InputStream> => {
      const inner = backend.openInput(open);
      if (!inner.ok) return inner;
      return { ok: true, value: new PacedInput(inner.value, options) };
    },
  };
}

class PacedInput implements InputStream {
  private readonly queue: Int16Array[] = [];
  private queued = 0;
  private received = 0;
  private released = 0;
  private innerOpen = true;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly bound: number;

  constructor(
    private readonly inner: InputStream,
    private readonly options: PacedInputOptions,
  ) {
    this.bound = Math.floor((options.boundMs * inner.sampleRate) / 1000) * inner.channels;
  }

  get device() {
    return this.inner.device;
  }
  get sampleRate() {
    return this.inner.sampleRate;
  }
  get channels() {
    return this.inner.channels;
  }

  start(onData: (pcm: Int16Array) => void, onError: (error: AudioError) => void): void {
    this.inner.start(
      (pcm) => {
        if (this.received >= this.bound) return;
        const take = pcm.subarray(0, Math.min(pcm.length, this.bound - this.received));
        this.queue.push(take.slice());
        this.queued += take.length;
        this.received += take.length;
        if (this.received >= this.bound) this.closeInner();
      },
      (error) => {
        if (this.closed) return;
        this.stopTimer();
        onError(error);
      },
    );
    const periodMs = this.options.periodMs ?? 20;
    const periodSamples = Math.max(1, Math.round((this.sampleRate * periodMs) / 1000)) * this.channels;
    const startedAt = performance.now();
    const tick = (): void => {
      // Node's timers count whole milliseconds of a loop clock read once per turn, so a tick set
      // for a boundary often fires up to a millisecond before it by performance.now(): that tick
      // releases the period due at the boundary. (Flooring without the margin made it release
      // nothing and re-arm for the remaining fraction, a second wake-up that under load came back
      // several ms late: a late frame then a short one.)
      const periods = Math.floor((performance.now() - startedAt + EARLY_MS) / periodMs);
      // The next tick at the next period's boundary (setInterval would drift a little each time,
      // and then release two periods at once to catch up: a jitter a real card does not have).
      this.timer = setTimeout(tick, Math.max(0, (periods + 1) * periodMs - (performance.now() - startedAt)));
      this.release(periods * periodSamples - this.released, onData);
    };
    this.timer = setTimeout(tick, periodMs);
  }

  /** Hands on `want` samples from the device (then silence past the bound, when asked for). */
  private release(want: number, onData: (samples: Int16Array) => void): void {
    if (want <= 0) return;
    const parts: Int16Array[] = [];
    while (want > 0 && this.queue.length > 0) {
      const head = this.queue[0];
      if (head.length <= want) {
        parts.push(head);
        this.queue.shift();
        want -= head.length;
      } else {
        parts.push(head.subarray(0, want));
        this.queue[0] = head.subarray(want);
        want = 0;
      }
    }
    const fromDevice = parts.reduce((n, p) => n + p.length, 0);
    this.queued -= fromDevice;
    // Past the bound (everything delivered): silence at the same pace, or nothing at all.
    const silent = this.received >= this.bound && this.queued === 0 && want > 0 && this.options.after === 'silence' ? want : 0;
    if (fromDevice + silent === 0) return;
    const out = new Int16Array(fromDevice + silent);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    this.released += out.length;
    onData(out);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer();
    await this.closeInner();
  }

  private closeInner(): Promise<void> {
    if (!this.innerOpen) return Promise.resolve();
    this.innerOpen = false;
    return this.inner.close();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

import { afterEach, describe, expect, it } from 'vitest';
import type { AudioError } from '../../../../shared/audio/errors';
import { Resampler } from '../../../../shared/audio/resampler';
import { createPacedBackend } from '../../../../main/audio/paced-backend';
import { INTERRUPTIBLE_OUTPUT, Playback } from '../../../../main/audio/playback';
import type { AudioBackend, OutputStream } from '../../../../main/audio/types';
import { concat, sine, until } from './helpers';

const open: Playback[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.dispose()));
});

function device() {
  const played: Int16Array[] = [];
  const backend = createPacedBackend({ outputs: [{ name: 'speaker', sampleRate: 48000, channels: 2, onPlayed: (pcm) => played.push(pcm.slice()) }] });
  return { backend, played: () => concat(played) };
}

function start(options: Omit<Parameters<typeof Playback.open>[0], 'backend'>, backend: Parameters<typeof Playback.open>[0]['backend']): Playback {
  const opened = Playback.open({ backend, ...options });
  if (!opened.ok) throw new Error(opened.error.message);
  open.push(opened.value);
  return opened.value;
}

/** Mono -> stereo by copying. */
function stereo(mono: Int16Array): Int16Array {
  const out = new Int16Array(mono.length * 2);
  for (let i = 0; i < mono.length; i++) out[i * 2] = out[i * 2 + 1] = mono[i];
  return out;
}

/**
 * A device like naudiodon: takes nothing back, and a write completes when the test says (as
 * naudiodon's do when its queue has room), so what is written when is in the test's hands.
 */
function heldDevice() {
  const writes: Int16Array[] = [];
  const waiting: Array<() => void> = [];
  let outstanding = 0;
  let mostOutstanding = 0;
  const dev = { id: 'x:naudiodon-like', index: 0, name: 'naudiodon-like', hostApi: 'x', maxInputChannels: 0, maxOutputChannels: 2, defaultSampleRate: 48000 };
  const backend: AudioBackend = {
    name: 'held',
    listDevices: () => ({ ok: true, value: { devices: [dev], defaultInputId: null, defaultOutputId: dev.id } }),
    openInput: () => ({ ok: false, error: { code: 'no_device', message: 'none' } }),
    openOutput: () => ({
      ok: true,
      value: {
        device: dev,
        sampleRate: 48000,
        channels: 2,
        write(pcm) {
          writes.push(pcm.slice());
          mostOutstanding = Math.max(mostOutstanding, ++outstanding);
          return new Promise<void>((r) => waiting.push(() => (outstanding--, r())));
        },
        pendingFrames: 0,
        discard: () => 0,
        onError: () => {},
        close: async () => {},
      },
    }),
  };
  /** Completes `n` writes, then waits for the pump's next one. */
  const release = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await until(() => waiting.length > 0, 10_000, 'a write');
      waiting.shift()!();
    }
    await until(() => waiting.length > 0, 10_000, 'the next write');
  };
  /** Frames of audio (non-zero left samples) in the writes from `from` on. */
  const audioFrames = (from = 0) => writes.slice(from).reduce((n, w) => n + w.filter((v, i) => i % 2 === 0 && v !== 0).length, 0);
  return { backend, writes, release, audioFrames, mostOutstanding: () => mostOutstanding, releaseAll: () => waiting.splice(0).forEach((r) => r()) };
}

describe('Playback', () => {
  it('plays 24 kHz mono deltas on a 48 kHz stereo device exactly as the resampled audio, after leading silence', async () => {
    const { backend, played } = device();
    const source = sine(24000, 330, 7200); // 300 ms
    const playback = start({ sourceRate: 24000, targetDepthMs: 40 }, backend);
    for (let at = 0; at < source.length; at += 480) playback.enqueue(source.subarray(at, at + 480));
    playback.end();
    await until(() => playback.stats.state === 'idle' && played().length / 2 >= (playback.stats.framesBeforeFirstAudio ?? Infinity) + 14400 + 480, 10_000, 'the audio to play out');

    const r = new Resampler(24000, 48000);
    const expected = stereo(concat([r.push(source), r.flush()]));
    const lead = playback.stats.framesBeforeFirstAudio! * 2;
    const out = played();
    expect(out.subarray(0, lead).every((s) => s === 0)).toBe(true);
    expect(out.subarray(lead, lead + expected.length)).toEqual(expected);
    expect(out.subarray(lead + expected.length).every((s) => s === 0)).toBe(true);
    expect(playback.stats.underruns).toBe(0);
    expect(playback.stats.playedMs).toBe(300);
  });

  it('flush() silences the device at once and returns the ms actually heard of the current item', async () => {
    const { backend, played } = device();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20 }, backend);
    playback.markItem();
    // A constant signal: every frame of audio is non-zero, every frame of padding is zero.
    playback.enqueue(new Int16Array(48000).fill(5000));
    await until(() => playback.stats.playedMs >= 200, 10_000, '200 ms played');
    const heardMs = playback.flush();
    const playedBefore = played().length;
    await new Promise((r) => setTimeout(r, 150));
    const out = played();
    const audioFrames = out.reduce((n, s, i) => n + (i % 2 === 0 && s !== 0 ? 1 : 0), 0);
    expect(heardMs).toBe((audioFrames * 1000) / 48000);
    expect(heardMs).toBeGreaterThanOrEqual(200);
    expect(out.subarray(playedBefore).every((s) => s === 0)).toBe(true);
    expect(playback.stats.bufferedMs).toBe(0);
  });

  it('flush() on a device that takes nothing back (naudiodon): one write in flight, counted as heard; only silence after it; the next item whole', async () => {
    const { backend, writes, release, audioFrames, mostOutstanding, releaseAll } = heldDevice();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20, ...INTERRUPTIBLE_OUTPUT }, backend);
    playback.markItem();
    playback.enqueue(new Int16Array(4800).fill(3000)); // item A: 100 ms
    await release(15);
    const inFlight = writes.length; // the write the pump waits on was read before the flush: it will play
    const heardMs = playback.flush();
    expect(audioFrames()).toBeGreaterThan(0);
    expect(audioFrames()).toBeLessThan(4800);
    expect(heardMs).toBe((audioFrames() * 1000) / 48000);
    await release(10);
    expect(audioFrames(inFlight)).toBe(0); // nothing of A after the flush
    playback.markItem();
    playback.enqueue(new Int16Array(960).fill(-3000)); // item B: 20 ms
    playback.end();
    const beforeB = writes.length;
    await release(20);
    const b = writes.slice(beforeB).flatMap((w) => [...w]).filter((v) => v !== 0);
    expect(b).toEqual(new Array(960 * 2).fill(-3000));
    // The app never has more than the one write the device is waiting to take.
    expect(mostOutstanding()).toBe(1);
    releaseAll();
  });

  it('after a flush, the next write is the silence tail in one piece (flushTailMs), then periods again', async () => {
    const { backend, writes, release, audioFrames, releaseAll } = heldDevice();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20, ...INTERRUPTIBLE_OUTPUT }, backend);
    const period = (48000 * INTERRUPTIBLE_OUTPUT.periodMs) / 1000;
    playback.enqueue(new Int16Array(4800).fill(3000));
    await release(15);
    const inFlight = writes.length;
    expect(writes.at(-1)!.some((v) => v !== 0)).toBe(true); // audio in flight at the flush
    const heardMs = playback.flush();
    await release(3);
    const after = writes.slice(inFlight).map((w) => w.length / 2);
    expect(after).toEqual([(48000 * INTERRUPTIBLE_OUTPUT.flushTailMs) / 1000, period, period]);
    expect(audioFrames(inFlight)).toBe(0);
    expect(heardMs).toBe((audioFrames() * 1000) / 48000);
    // Only once: a second flush with nothing playing writes another tail, and the count stays right.
    expect(playback.flush()).toBe(0);
    await release(2);
    expect(writes.slice(inFlight + 3).map((w) => w.length / 2)).toEqual([(48000 * INTERRUPTIBLE_OUTPUT.flushTailMs) / 1000, period]);
    expect(playback.stats.framesWritten).toBe(writes.reduce((n, w) => n + w.length / 2, 0));
    releaseAll();
  });

  it('without flushTailMs a flush is followed by periods only', async () => {
    const { backend, writes, release, releaseAll } = heldDevice();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20, periodMs: 2, deviceQueuePeriods: 1 }, backend);
    playback.enqueue(new Int16Array(4800).fill(3000));
    await release(15);
    playback.flush();
    await release(3);
    expect(new Set(writes.map((w) => w.length / 2))).toEqual(new Set([96]));
    releaseAll();
  });

  it('markItem() makes flush() count from the start of the new item', async () => {
    const { backend, played } = device();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20 }, backend);
    playback.enqueue(new Int16Array(4800).fill(1000)); // item 1: 100 ms
    playback.markItem();
    playback.enqueue(new Int16Array(48000).fill(2000)); // item 2
    await until(() => playback.stats.playedMs >= 250, 10_000, '250 ms played');
    const heard = playback.flush();
    // The paced device drops what it holds on flush: what it played is what was heard. Counted in
    // frames (ms of a frame count are not exact in floating point), whatever the timing.
    const out = played();
    const frames = (value: number) => out.reduce((n, s, i) => n + (i % 2 === 0 && s === value ? 1 : 0), 0);
    expect(frames(1000)).toBe(4800);
    expect(frames(2000)).toBeGreaterThan(0);
    expect(Math.round((heard * 48000) / 1000)).toBe(frames(2000));
    await new Promise((r) => setTimeout(r, 50));
    expect(frames(2000)).toBe(Math.round((heard * 48000) / 1000)); // nothing of item 2 after the flush
  });

  it('counts an underrun when the audio stops coming before end()', async () => {
    const { backend } = device();
    const playback = start({ sourceRate: 48000, targetDepthMs: 20 }, backend);
    playback.enqueue(new Int16Array(2400).fill(100)); // 50 ms, no end()
    await until(() => playback.stats.underruns === 1, 10_000, 'an underrun');
    playback.enqueue(new Int16Array(480).fill(100));
    playback.end();
    await until(() => playback.stats.state === 'idle', 10_000, 'idle');
    expect(playback.stats.underruns).toBe(1);
  });

  it('does not take a busy thread for a lost device', async () => {
    // A native write completes as I/O, after the timers that came due meanwhile: complete them the same way.
    const paced = device().backend;
    const backend: AudioBackend = {
      ...paced,
      openOutput(options) {
        const opened = paced.openOutput(options);
        if (!opened.ok) return opened;
        const inner = opened.value;
        const stream: OutputStream = {
          device: inner.device,
          sampleRate: inner.sampleRate,
          channels: inner.channels,
          write: (pcm) => inner.write(pcm).then(() => new Promise<void>((r) => setImmediate(r))),
          get pendingFrames() {
            return inner.pendingFrames;
          },
          discard: () => inner.discard(),
          onError: (l) => inner.onError(l),
          close: () => inner.close(),
        };
        return { ok: true, value: stream };
      },
    };
    const errors: AudioError[] = [];
    const playback = start({ sourceRate: 48000, stallMs: 200, onError: (e) => errors.push(e) }, backend);
    playback.enqueue(new Int16Array(48000));
    await until(() => playback.stats.framesWritten > 4800, 10_000, 'writes');
    const busyUntil = performance.now() + 600;
    while (performance.now() < busyUntil) {
      /* busy */
    }
    const written = playback.stats.framesWritten;
    await until(() => playback.stats.framesWritten > written + 4800, 10_000, 'writes after the busy spell');
    expect(errors).toEqual([]);
  });

  it('reports an output unplugged mid-stream as device_lost and takes no more audio', async () => {
    const { backend } = device();
    const errors: AudioError[] = [];
    const playback = start({ sourceRate: 48000, stallMs: 200, onError: (e) => errors.push(e) }, backend);
    playback.enqueue(new Int16Array(48000));
    await until(() => playback.stats.framesWritten > 4800, 10_000, 'writes');
    backend.unplug('speaker');
    await until(() => errors.length > 0, 10_000, 'the error');
    expect(errors).toEqual([{ code: 'device_lost', message: '"speaker" was disconnected. Plug it back in or pick another output.' }]);
    expect(playback.stats.state).toBe('failed');
    expect(() => playback.enqueue(new Int16Array(10))).not.toThrow();
  });
});

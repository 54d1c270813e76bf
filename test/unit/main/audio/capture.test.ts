import { afterEach, describe, expect, it } from 'vitest';
import type { AudioError } from '../../../../shared/audio/errors';
import type { Level } from '../../../../shared/audio/levels';
import { mixToMono } from '../../../../shared/audio/pcm';
import { Resampler } from '../../../../shared/audio/resampler';
import { Capture, type CaptureFrame } from '../../../../main/audio/capture';
import { createPacedBackend } from '../../../../main/audio/paced-backend';
import type { AudioBackend, InputStream } from '../../../../main/audio/types';
import { concat, sine, until } from './helpers';

const open: Capture[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.dispose()));
});

describe('Capture', () => {
  it('turns 48 kHz stereo from the device into 20 ms mono frames at 16 kHz, in order, with nothing lost', async () => {
    const source = sine(48000, 440, 24000, 2); // 0.5 s
    const backend = createPacedBackend({ inputs: [{ name: 'mic', sampleRate: 48000, channels: 2, source }] });
    const frames: CaptureFrame[] = [];
    const levels: Level[] = [];
    const started = Capture.start({ backend, sampleRate: 16000, onFrame: (f) => frames.push(f), onLevel: (l) => levels.push(l) });
    if (!started.ok) throw new Error(started.error.message);
    open.push(started.value);
    await until(() => frames.length >= 20, 10_000, '20 frames');
    await started.value.dispose();
    const got = frames.slice(0, 20);

    expect(got.map((f) => f.seq)).toEqual([...Array(20).keys()]);
    expect(got.map((f) => f.startMs)).toEqual([...Array(20).keys()].map((i) => i * 20));
    expect(got.every((f) => f.pcm.length === 320 && f.sampleRate === 16000 && f.channels === 1)).toBe(true);
    // The frames are the device's audio, mixed down and resampled as one continuous signal.
    const expected = new Resampler(48000, 16000, 1).push(mixToMono(source, 2)).subarray(0, 20 * 320);
    expect(concat(got.map((f) => f.pcm))).toEqual(expected);
    // A level per 50 ms of audio: 2 per 5 frames.
    expect(levels.length).toBeGreaterThanOrEqual(Math.floor((frames.length * 20) / 50) - 1);
    expect(levels.length).toBeLessThanOrEqual(Math.ceil((frames.length * 20) / 50) + 1);
    expect(levels[2].rms).toBeGreaterThan(0.1);
  });

  it('reports a device that is unplugged mid-stream as device_lost, once, and stops', async () => {
    const backend = createPacedBackend({ inputs: [{ name: 'usb mic', sampleRate: 16000, channels: 1, source: new Int16Array(16000) }] });
    const frames: CaptureFrame[] = [];
    const errors: AudioError[] = [];
    const started = Capture.start({ backend, sampleRate: 16000, stallMs: 200, onFrame: (f) => frames.push(f), onError: (e) => errors.push(e) });
    if (!started.ok) throw new Error(started.error.message);
    open.push(started.value);
    await until(() => frames.length >= 3, 10_000, 'frames');
    backend.unplug('usb mic');
    await until(() => errors.length > 0, 10_000, 'the error');
    const count = frames.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(errors).toEqual([{ code: 'device_lost', message: 'The microphone "usb mic" was disconnected. Plug it back in or pick another one.' }]);
    expect(frames.length).toBe(count);
  });

  it('does not take a busy thread for a lost device (its watchdog ran late too)', async () => {
    // Native audio arrives as I/O, which Node runs after the timers that came due meanwhile:
    // deliver it the same way, so after a busy spell the watchdog runs before the waiting audio.
    const paced = createPacedBackend({ inputs: [{ name: 'mic', sampleRate: 16000, channels: 1, source: new Int16Array(16000) }] });
    const backend: AudioBackend = {
      ...paced,
      openInput(options) {
        const opened = paced.openInput(options);
        if (!opened.ok) return opened;
        const inner = opened.value;
        const stream: InputStream = {
          device: inner.device,
          sampleRate: inner.sampleRate,
          channels: inner.channels,
          start: (onData, onError) => inner.start((pcm) => setImmediate(() => onData(pcm)), onError),
          close: () => inner.close(),
        };
        return { ok: true, value: stream };
      },
    };
    const frames: CaptureFrame[] = [];
    const errors: AudioError[] = [];
    const started = Capture.start({ backend, sampleRate: 16000, stallMs: 200, onFrame: (f) => frames.push(f), onError: (e) => errors.push(e) });
    if (!started.ok) throw new Error(started.error.message);
    open.push(started.value);
    await until(() => frames.length >= 2, 10_000, 'frames');
    const busyUntil = performance.now() + 600; // three stall periods without yielding
    while (performance.now() < busyUntil) {
      /* busy */
    }
    const after = frames.length;
    await until(() => frames.length >= after + 5, 10_000, 'frames after the busy spell');
    expect(errors).toEqual([]);
    // Nothing was lost either: the frames caught up, numbered without a gap.
    expect(frames.map((f) => f.seq)).toEqual([...Array(frames.length).keys()]);
  });

  it('says there is no microphone when none is plugged in', () => {
    const backend = createPacedBackend({ outputs: [{ name: 'speaker', sampleRate: 48000, channels: 2 }] });
    const started = Capture.start({ backend, sampleRate: 16000, onFrame: () => {} });
    expect(started).toEqual({ ok: false, error: { code: 'no_device', message: 'No microphone found. Plug one in, or check that the system sees it.' } });
  });

  it('says which microphone is gone when asked for one that is not there', () => {
    const backend = createPacedBackend({ inputs: [{ name: 'mic', sampleRate: 16000, channels: 1, source: new Int16Array(0) }] });
    const started = Capture.start({ backend, deviceId: 'Paced:headset', sampleRate: 16000, onFrame: () => {} });
    expect(started.ok === false && started.error).toEqual({ code: 'no_device', message: 'The microphone "Paced:headset" is not connected. Pick another one, or plug it back in.' });
  });

  it('refuses a service rate with no whole 20 ms frame', () => {
    const backend = createPacedBackend({ inputs: [{ name: 'mic', sampleRate: 16000, channels: 1, source: new Int16Array(0) }] });
    const started = Capture.start({ backend, sampleRate: 11025, onFrame: () => {} });
    expect(started.ok === false && started.error.code).toBe('invalid_argument');
  });
});

/**
 * The native backend's stream settings, with naudiodon replaced by a recorder of what it is
 * asked (the real library is exercised on an ALSA device in test/audio/).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

interface Opened {
  options: { outOptions?: Record<string, number | boolean> };
  written: Buffer[];
}
const opened: Opened[] = [];

vi.mock('naudiodon', () => {
  const lib = {
    SampleFormat16Bit: 16,
    getDevices: () => [{ id: 0, name: 'card', hostAPIName: 'ALSA', maxInputChannels: 0, maxOutputChannels: 2, defaultSampleRate: 48000 }],
    getHostAPIs: () => ({ defaultHostAPI: 0, HostAPIs: [{ defaultInput: 0xffffffff, defaultOutput: 0 }] }),
    AudioIO: (options: Opened['options']) => {
      const entry: Opened = { options, written: [] };
      opened.push(entry);
      return {
        on: () => {},
        start: () => {},
        // Taken at once, as naudiodon does while its queue has room.
        write: (buf: Buffer, cb: () => void) => {
          entry.written.push(buf);
          cb();
        },
        quit: (cb: () => void) => cb(),
      };
    },
  };
  return { default: lib, ...lib };
});

const { createNaudiodonBackend } = await import('../../../../main/audio/naudiodon-backend');

afterEach(() => {
  opened.length = 0;
  vi.restoreAllMocks();
});

async function output(options: Parameters<import('../../../../main/audio/types').AudioBackend['openOutput']>[0]) {
  const backend = await createNaudiodonBackend();
  if (!backend.ok) throw new Error(backend.error.message);
  const out = backend.value.openOutput(options);
  if (!out.ok) throw new Error(out.error.message);
  return out.value;
}

describe('naudiodon backend output', () => {
  it('asks PortAudio for ≈ 1.17 ms callbacks on a lowLatency output (its ALSA buffer follows them), our chunks unchanged', async () => {
    await output({ sampleRate: 48000, periodMs: 2, queuePeriods: 1, lowLatency: true });
    await output({ sampleRate: 24000, periodMs: 2, queuePeriods: 1, lowLatency: true });
    await output({ sampleRate: 48000, periodMs: 2, queuePeriods: 1 });
    await output({ sampleRate: 48000, periodMs: 1, queuePeriods: 1, lowLatency: true });
    const asked = opened.map((o) => [o.options.outOptions!.framesPerBuffer, o.options.outOptions!.highwaterMark, o.options.outOptions!.maxQueue]);
    expect(asked).toEqual([
      [56, 96 * 4, 1],
      [28, 48 * 4, 1],
      [96, 96 * 4, 1], // without lowLatency: one callback per chunk, as before
      [48, 48 * 4, 1], // never more than a chunk
    ]);
  });

  it('estimates what the device still holds from the sizes of the chunks taken (a flush tail is longer)', async () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const out = await output({ sampleRate: 48000, periodMs: 2, queuePeriods: 1, lowLatency: true });
    const chunk = (frames: number) => out.write(new Int16Array(frames * 2));
    await chunk(96);
    expect(out.pendingFrames).toBe(96); // nothing played yet: all of it ahead
    await chunk(96);
    expect(out.pendingFrames).toBe(96 + 48); // the queued chunk and half the one playing
    await chunk(960);
    expect(out.pendingFrames).toBe(960 + 48);
    now += 10; // 480 frames later
    expect(out.pendingFrames).toBe(960 + 48 - 480);
    await chunk(96);
    expect(out.pendingFrames).toBe(96 + 480);
    now += 100;
    expect(out.pendingFrames).toBe(0);
    await out.close();
  });
});

import { describe, expect, it } from 'vitest';
import type { PageAudioEnv } from '@/audio/page-capture';
import { startPageMicrophone } from '@/audio/page-microphone';

function fakeContext(): AudioContext {
  return {
    sampleRate: 48000,
    audioWorklet: { addModule: async () => {} },
    createMediaStreamSource: () => ({ connect: () => {} }),
    close: async () => {},
  } as unknown as AudioContext;
}

/** getUserMedia refusing with a DOMException-like name. */
function refusing(name: string): PageAudioEnv {
  return {
    getUserMedia: () => Promise.reject(Object.assign(new Error('nope'), { name })),
    createContext: fakeContext,
    createWorkletNode: () => {
      throw new Error('not reached');
    },
    workletUrl: 'x',
  };
}

/** A microphone that starts: its worklet port and track are the test's to drive. */
function working() {
  const port = { onmessage: null as ((e: MessageEvent) => void) | null, postMessage: () => {} };
  const track = new EventTarget() as MediaStreamTrack & EventTarget;
  const stopped: string[] = [];
  Object.assign(track, { label: 'USB mic', stop: () => stopped.push('track') });
  const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
  const asked: MediaStreamConstraints[] = [];
  const env: PageAudioEnv = {
    getUserMedia: async (c) => {
      asked.push(c);
      return stream;
    },
    createContext: fakeContext,
    createWorkletNode: () => ({ port, disconnect: () => {} }) as unknown as AudioWorkletNode,
    workletUrl: 'x',
  };
  return { env, port, track, stopped, asked };
}

describe('startPageMicrophone()', () => {
  it('says a refused permission as a `denied` value, never sending a byte', async () => {
    const sent: Uint8Array[] = [];
    const started = await startPageMicrophone({ sampleRate: 24000, send: (b) => sent.push(b), onFailed: () => {} }, refusing('NotAllowedError'));
    expect(started.ok).toBe(false);
    if (started.ok) return;
    expect(started.error.code).toBe('denied');
    expect(started.error.message).toMatch(/refused.*Allow it/);
    expect(sent).toEqual([]);
  });

  it.each(['NotFoundError', 'OverconstrainedError'])('says a missing (or gone) microphone, %s, as a `no_device` value', async (name) => {
    const started = await startPageMicrophone({ sampleRate: 16000, deviceId: 'gone', send: () => {}, onFailed: () => {} }, refusing(name));
    expect(started.ok === false && started.error.code).toBe('no_device');
    expect(started.ok === false && started.error.message).toMatch(/No microphone found/);
  });

  it('sends each frame as its PCM16 bytes in order, asking for the chosen device and channels', async () => {
    const mic = working();
    const sent: number[][] = [];
    const started = await startPageMicrophone({ sampleRate: 16000, channels: 2, deviceId: 'mic-usb', send: (b) => sent.push([...b]), onFailed: () => {} }, mic.env);
    expect(started.ok).toBe(true);
    expect(mic.asked[0]!.audio).toMatchObject({ deviceId: { exact: 'mic-usb' }, channelCount: 2 });
    const pcm = (values: number[]) => Int16Array.from(values);
    mic.port.onmessage!({ data: { type: 'frame', seq: 0, startMs: 0, pcm: pcm([1, -1]) } } as MessageEvent);
    mic.port.onmessage!({ data: { type: 'frame', seq: 1, startMs: 20, pcm: pcm([256, 2]) } } as MessageEvent);
    // Little-endian PCM16, the media channel's `mic` payload.
    expect(sent).toEqual([
      [1, 0, 255, 255],
      [0, 1, 2, 0],
    ]);
  });

  it('reports an unplug once, and stops the tracks', async () => {
    const mic = working();
    const failed: unknown[] = [];
    const started = await startPageMicrophone({ sampleRate: 24000, send: () => {}, onFailed: (e) => failed.push(e) }, mic.env);
    expect(started.ok).toBe(true);
    mic.track.dispatchEvent(new Event('ended'));
    mic.track.dispatchEvent(new Event('ended'));
    expect(failed).toEqual([{ code: 'device_lost', message: 'The microphone "USB mic" was disconnected. Plug it back in or pick another one.' }]);
    expect(mic.stopped).toEqual(['track']);
  });
});

import { describe, expect, it } from 'vitest';
import { PageCapture, captureConstraints, microphoneError, type PageAudioEnv } from '@/audio/page-capture';
import { PagePlayback, type PagePlaybackEnv } from '@/audio/page-playback';
import { PlaybackCore, handleCommand } from '@/audio/playback-core';
import type { PlaybackCommand } from '@/audio/messages';

/** A fake AudioContext with just what the wrappers call. */
function fakeContext(): AudioContext {
  return {
    sampleRate: 48000,
    state: 'running',
    destination: { channelCount: 2 },
    audioWorklet: { addModule: async () => {} },
    createMediaStreamSource: () => ({ connect: () => {} }),
    close: async () => {},
    resume: async () => {},
  } as unknown as AudioContext;
}

describe('PageCapture.start()', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['NotFoundError', 'no_device'],
    ['NotReadableError', 'device_error'],
    ['NotSupportedError', 'no_device'],
  ])('turns a getUserMedia %s into a %s error value', async (name, code) => {
    const env: PageAudioEnv = {
      getUserMedia: () => Promise.reject(Object.assign(new Error('nope'), { name })),
      createContext: fakeContext,
      createWorkletNode: () => {
        throw new Error('not reached');
      },
      workletUrl: 'x',
    };
    const started = await PageCapture.start({ sampleRate: 16000, onFrame: () => {} }, env);
    expect(started).toEqual({ ok: false, error: microphoneError(Object.assign(new Error('nope'), { name })) });
    expect(started.ok === false && started.error.code).toBe(code);
  });

  it('delivers frames from the worklet with the service rate, and reports an unplugged track once', async () => {
    const port = { onmessage: null as ((e: MessageEvent) => void) | null, postMessage: () => {} };
    const track = new EventTarget() as MediaStreamTrack & EventTarget;
    Object.assign(track, { label: 'USB mic', stop: () => {} });
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] } as unknown as MediaStream;
    const env: PageAudioEnv = {
      getUserMedia: async () => stream,
      createContext: fakeContext,
      createWorkletNode: () => ({ port, disconnect: () => {} }) as unknown as AudioWorkletNode,
      workletUrl: 'x',
    };
    const frames: unknown[] = [];
    const errors: unknown[] = [];
    const started = await PageCapture.start({ sampleRate: 16000, onFrame: (f) => frames.push({ ...f, capturedAt: 0 }), onError: (e) => errors.push(e) }, env);
    if (!started.ok) throw new Error(started.error.message);
    const pcm = new Int16Array(320);
    port.onmessage!({ data: { type: 'frame', seq: 0, startMs: 0, pcm } } as MessageEvent);
    expect(frames).toEqual([{ seq: 0, pcm, sampleRate: 16000, channels: 1, startMs: 0, capturedAt: 0 }]);
    track.dispatchEvent(new Event('ended'));
    track.dispatchEvent(new Event('ended'));
    expect(errors).toEqual([{ code: 'device_lost', message: 'The microphone "USB mic" was disconnected. Plug it back in or pick another one.' }]);
  });
});

describe('captureConstraints()', () => {
  it('asks for call processing on a mono microphone, none for stereo (an echo canceller mixes to mono) or when told', () => {
    const processed = { echoCancellation: true, noiseSuppression: true, autoGainControl: true };
    const raw = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };
    expect(captureConstraints({ deviceId: 'mic-1' })).toEqual({ deviceId: { exact: 'mic-1' }, channelCount: 1, ...processed });
    expect(captureConstraints({ channels: 2 })).toEqual({ deviceId: undefined, channelCount: 2, ...raw });
    expect(captureConstraints({ voiceProcessing: false })).toMatchObject({ channelCount: 1, ...raw });
  });
});

describe('PagePlayback', () => {
  it('flush() resolves to the ms the worklet rendered of the current item', async () => {
    const core = new PlaybackCore(48000, 24000, 20);
    const node = {
      port: {
        onmessage: null as ((e: MessageEvent) => void) | null,
        postMessage(command: PlaybackCommand | { type: 'close' }) {
          // The worklet's side, answering asynchronously as a real port does.
          const reply = handleCommand(core, command);
          if (reply) queueMicrotask(() => node.port.onmessage?.({ data: reply } as MessageEvent));
        },
      },
      connect: () => {},
      disconnect: () => {},
    };
    const env: PagePlaybackEnv = { createContext: fakeContext, createWorkletNode: () => node as unknown as AudioWorkletNode, workletUrl: 'x' };
    const opened = await PagePlayback.open({ sourceRate: 24000, targetDepthMs: 20 }, env);
    if (!opened.ok) throw new Error(opened.error.message);
    const playback = opened.value;
    playback.markItem();
    playback.enqueue(new Int16Array(24000).fill(300));
    for (let q = 0; q < 30; q++) core.render([new Float32Array(128)]); // 3840 frames at 48 kHz = 80 ms
    expect(await playback.flush()).toBe(80);
    expect((await playback.stats())?.bufferedMs).toBe(0);
    await playback.dispose();
    expect(await playback.flush()).toBe(0);
  });
});

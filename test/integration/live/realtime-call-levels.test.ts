/**
 * The realtime call's microphone level, metered in the media process (where a native or file
 * microphone is heard, never by the page) and sent on the snapshot's `levels` stream: rms and peak
 * dBFS as a float32 pair. A tone of known amplitude on the call's microphone reads as that level;
 * muted, the meter reads silence (what the service is sent). Values only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';
import { PAGE_ORIGIN } from '../media/harness';
import { startLiveApp } from './harness';
import { attachCall } from './realtime-harness';

let env: Awaited<ReturnType<typeof startLiveApp>>;
beforeAll(async () => {
  env = await startLiveApp();
}, 60_000);
afterAll(() => env?.close());

/** 20 ms of a 440 Hz sine at 24 kHz with `peak` amplitude (of 32767). */
function tone(peak: number, startSample: number): Uint8Array {
  const pcm = new Int16Array(480);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(peak * Math.sin((2 * Math.PI * 440 * (startSample + i)) / 24_000));
  return new Uint8Array(pcm.buffer);
}

describe('realtime call levels', () => {
  it('meters the microphone on the levels stream: a -12 dBFS tone reads so, muted reads silence', async () => {
    const id = await env.app.live.start('realtime', { microphone: { kind: 'page' }, output: { kind: 'none' }, turnDetection: null }, { origin: 'window' });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live' && win.state().streams.mic >= 0, 'connected');
    const { mic, levels } = win.state().streams;
    expect(levels).toBeGreaterThanOrEqual(0);
    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });
    const read: Array<{ rms: number; peak: number }> = [];
    channel.onFrame(levels, (frame) => {
      const view = new DataView(frame.payload.buffer, frame.payload.byteOffset, frame.payload.byteLength);
      read.push({ rms: view.getFloat32(0), peak: view.getFloat32(4) });
    });
    // A sine with peak 0.25 of full scale: peak -12 dBFS, rms -15 dBFS.
    const peak = Math.round(32767 / 4);
    let sample = 0;
    const send = (frames: number) => {
      for (let i = 0; i < frames; i++, sample += 480) channel.send(mic, FrameKind.Audio, tone(peak, sample));
    };
    send(50);
    await win.until(() => read.length >= 10, 'levels of a second of tone');
    const loud = read.slice(1, 10);
    for (const l of loud) {
      expect(l.peak).toBeCloseTo(-12, 0);
      expect(l.rms).toBeCloseTo(-15, 0);
    }
    await win.attachment.control({ type: 'mute', muted: true });
    await win.until(() => win.state().muted, 'muted');
    const before = read.length;
    send(50);
    await win.until(() => read.length >= before + 10, 'levels while muted');
    expect(read.slice(-5).every((l) => l.rms <= -90 && l.peak <= -90)).toBe(true);
    channel.close();
    await env.app.live.stop(id);
  }, 60_000);
});

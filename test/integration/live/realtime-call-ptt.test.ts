/**
 * Push-to-talk on the `realtime` live kind against the embedded sandbox, with a real media process
 * and the page's microphone frames: while the talk button is not held, no `input_audio_buffer.append`
 * leaves the app (the media session's counts at the socket, and the answer that says how much audio
 * the turn committed), while the recording still keeps the whole microphone track. Counts only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionRecord } from '../../../shared/contract/history';
import { createMediaChannel, webSocketFramePort } from '../../../renderer/src/bridge/media-channel';
import type { SocketLike } from '../../../renderer/src/bridge/ws-transport';
import { FrameKind } from '../../../shared/media-frames/frame';
import { PAGE_ORIGIN } from '../media/harness';
import { speechPcm, startLiveApp } from './harness';
import { attachCall } from './realtime-harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
/** 20 ms at 24 kHz, PCM16. */
const FRAME_BYTES = 960;
let env: Awaited<ReturnType<typeof startLiveApp>>;

beforeAll(async () => {
  env = await startLiveApp();
}, 60_000);
afterAll(() => env?.close());

describe('realtime call: push-to-talk sends nothing while not held', () => {
  it('appends only between press and release; before and after, the microphone is recorded but not sent', async () => {
    let micSamples = 0;
    let stats: { framesSent: number; framesWithheld: number; appendsSent: number } | null = null;
    const off = env.plane.onEvent((e) => {
      if (e.type !== 'session-event') return;
      if (e.event === 'mic-audio') micSamples += Buffer.from(String((e.data as { pcm: string }).pcm), 'base64').byteLength / 2;
      if (e.event === 'stats') stats = e.data as typeof stats;
    });
    const id = await env.app.live.start('realtime', { turnDetection: null, microphone: { kind: 'page' }, output: { kind: 'none' } }, { origin: 'window' });
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    expect(win.state().turnDetection).toBe('manual');

    const info = await env.plane.channel();
    if (!info.ok || info.value.transport !== 'websocket') throw new Error(JSON.stringify(info));
    const { url, token } = info.value;
    const channel = createMediaChannel({ connect: webSocketFramePort(async () => ({ url, token }), (u, p) => new WebSocket(u, p, { origin: PAGE_ORIGIN }) as unknown as SocketLike) });
    // Open, with the clock known, before the first frame: under load a frame queued while the
    // channel connects can age past the real-time bound and be dropped (counted), as designed.
    for (let i = 0; i < 3000 && !(channel.state() === 'open' && channel.clock() !== null); i++) await new Promise((r) => setTimeout(r, 10));
    expect(channel.state()).toBe('open');
    const speech = await speechPcm(['Push to talk works.'], 24_000, 200);
    // Whole 100 ms pieces, so every frame sent is in a `mic-audio` event once the session has it.
    const frames = Math.floor(speech.byteLength / (FRAME_BYTES * 5)) * 5;
    let sentFrames = 0;
    /** Sends n frames of the speech and waits until the media session has them all (in `mic-audio`). */
    const talk = async (n: number): Promise<void> => {
      // 100 ms at a time, as a microphone delivers them (not one burst the real-time bound could age).
      for (let i = 0; i < n; i++) {
        channel.send(win.state().streams.mic, FrameKind.Audio, new Uint8Array(speech.subarray((i % frames) * FRAME_BYTES, ((i % frames) + 1) * FRAME_BYTES)));
        if (i % 5 === 4) await new Promise((r) => setTimeout(r, 100));
      }
      sentFrames += n;
      const deadline = Date.now() + 60_000;
      while (micSamples < sentFrames * (FRAME_BYTES / 2)) {
        if (Date.now() > deadline) throw new Error(`the media session has ${micSamples} samples of ${sentFrames} frames`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    await talk(50); // talk before the press: 1 s
    await win.attachment.control({ type: 'clear' }); // press
    await talk(frames);
    await win.attachment.control({ type: 'commit' }); // release
    await talk(25); // talk after the release
    await win.until(() => win.state().usage.responses === 1, 'the answer to the held turn');
    channel.close();
    await env.app.live.stop(id);
    await win.until(() => win.ended(), 'the end');
    while (!stats) await new Promise((r) => setTimeout(r, 20));
    off();

    // Only the held frames reached the socket; the 75 others were withheld.
    const s = stats as { framesSent: number; framesWithheld: number; appendsSent: number };
    expect(s.framesWithheld).toBe(75);
    expect(s.appendsSent).toBe(frames);
    expect(s.framesSent).toBe(frames);
    // The service's answer says what the commit held: the held part only (the sandbox rounds to 0.1 s).
    const answer = win.state().transcript.find((e) => e.role === 'assistant')?.text ?? '';
    const heard = Number(/I heard (\d+(?:\.\d+)?) seconds/.exec(answer)?.[1]);
    expect(Math.abs(heard - frames * 0.02)).toBeLessThanOrEqual(0.06);
    // The recording's microphone track has everything the microphone said, held or not.
    const session = (await env.app.handlers.history.session({ id: win.state().runId }, CTX)) as SessionRecord;
    expect(session.tracks.find((t) => t.direction === 'out')?.durationMs ?? 0).toBeGreaterThanOrEqual((50 + frames + 25) * 20 - 100);
  }, 120_000);
});

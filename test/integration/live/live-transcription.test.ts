/**
 * The live transcription path end to end, in plain Node: a page's microphone (a child process
 * sending 20 ms PCM16 frames from eSpeak NG speech on the media channel) -> the media process's
 * `transcription` session -> the embedded sandbox's WebSocket /v1/stt -> transcript events up to
 * main's `transcription` live kind -> a fake window attached to it; the recording in History.
 * Counts and order only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../shared/contract/history';
import { transcriptText } from '../../../shared/live-transcription';
import { attachWindow, runMicClient, speechPcm, startLiveApp } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;
let speech: Buffer;

beforeAll(async () => {
  env = await startLiveApp();
  speech = await speechPcm(['The quick brown fox jumps over the lazy dog.', 'Live transcription works from the microphone.']);
}, 60_000);
afterAll(() => env?.close());

async function frameChannel() {
  const channel = await env.plane.channel();
  if (!channel.ok || channel.value.transport !== 'websocket') throw new Error(JSON.stringify(channel));
  return channel.value;
}

describe('live transcription', () => {
  it('carries page microphone frames to the service and brings interim then final text back; History keeps the audio', async () => {
    const id = await env.app.live.start('transcription', { query: { sample_rate: 16_000, interim_results: true, endpointing: 300 }, source: { kind: 'page' } }, { origin: 'window' });
    const win = await attachWindow(env.app, id);
    const snap = win.state();
    expect(snap.status).toBe('listening');
    expect(snap.streams.mic).toBeGreaterThanOrEqual(0);
    const { url, token } = await frameChannel();
    const mic = await runMicClient({ url, token, mic: snap.streams.mic, pcm: speech, intervalMs: 5 }, env.dataDir);
    expect(mic.sent).toBe(mic.frames);
    expect(mic.stats.queue.droppedFull + mic.stats.queue.droppedStale).toBe(0);
    await env.app.live.stop(id);
    await win.until(() => win.ended());

    const events = win.events();
    const firstInterim = events.findIndex((e) => e.type === 'interim' && e.text.trim() !== '');
    const firstFinal = events.findIndex((e) => e.type === 'final');
    expect(firstInterim).toBeGreaterThanOrEqual(0);
    expect(firstFinal).toBeGreaterThan(firstInterim);
    // Two sentences with a long pause between: two utterances, each closed by speech_final.
    const state = win.state();
    expect(win.gaps()).toBe(0);
    expect(state.status).toBe('ended');
    expect(state.end?.incomplete).toBe(false);
    const channel0 = state.channels[0];
    expect(channel0.finals.filter((s) => s.utterance).length).toBeGreaterThanOrEqual(2);
    expect(transcriptText(channel0).length).toBeGreaterThan(10);
    expect(channel0.interim).toBeNull();

    // History: the run with the microphone track, as long as the audio sent (whole 100 ms chunks).
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const track = session.tracks.find((t) => t.direction === 'out');
    expect(track).toBeDefined();
    const sentMs = speech.byteLength / 2 / 16;
    expect(Math.abs(track!.durationMs - sentMs)).toBeLessThanOrEqual(100);
    expect(session.marks.some((m) => m.type === 'final_transcript')).toBe(true);
  }, 120_000);
});

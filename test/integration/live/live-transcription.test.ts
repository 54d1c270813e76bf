/**
 * The live transcription path end to end, in plain Node: a page's microphone (a child process
 * sending 20 ms PCM16 frames from eSpeak NG speech on the media channel) -> the media process's
 * `transcription` session -> the embedded sandbox's WebSocket /v1/stt -> transcript events up to
 * main's `transcription` live kind -> a fake window attached to it; the recording in History.
 * Counts and order only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { RunRecord } from '../../../shared/contract/runs';
import { startBlockMainHook } from '../../../main/media/block-main';
import { readPcm16Wav } from '../../unit/main/services/recording/wav-check';
import type { SessionRecord } from '../../../shared/contract/history';
import { transcriptText, type LiveTranscriptOutput } from '../../../shared/live-transcription';
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

/** The run's microphone track as a player reads it (header checked), its samples as bytes. */
async function microphoneTrack(runId: string): Promise<Buffer> {
  const session = (await env.app.handlers.history.session({ id: runId }, CTX)) as SessionRecord;
  const track = session.tracks.find((t) => t.direction === 'out' && t.name === 'microphone');
  if (!track?.media) throw new Error(`no microphone track: ${JSON.stringify(session.tracks)}`);
  const hash = /\/media\/([0-9a-f]+)/.exec(track.media.url)?.[1];
  const wav = readPcm16Wav(readFileSync(env.app.media.blobs.pathOf(hash!)));
  expect(wav.sampleRate).toBe(16_000);
  expect(wav.channels).toBe(1);
  return Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength);
}

const QUERY = { sample_rate: 16_000, interim_results: true, endpointing: 300 } as const;

describe('live transcription', () => {
  it('carries page microphone frames to the service and brings interim then final text back; History keeps the audio', async () => {
    const id = await env.app.live.start('transcription', { query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
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
    // Words with their timings (the page shows each word's confidence on hover).
    const words = channel0.finals.flatMap((f) => f.words);
    expect(words.length).toBeGreaterThan(4);
    expect(words.every((w) => w.text.length > 0 && w.end >= w.start)).toBe(true);
    expect(channel0.interim).toBeNull();

    // History: the run with the microphone track holding exactly the audio the page sent, playable.
    const pcm = await microphoneTrack(state.runId);
    expect(pcm.equals(speech.subarray(0, mic.frames * 640))).toBe(true);
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    expect(session.marks.filter((m) => m.type === 'final_transcript').length).toBe(channel0.finals.filter((f) => f.utterance).length);
    expect(session.marks.some((m) => m.type === 'speech_started')).toBe(true);
    // Each utterance's end in the audio is marked when it was captured, so the "Final transcript" figure has its turns.
    const utterances = channel0.finals.filter((f) => f.utterance).length;
    expect(session.marks.filter((m) => m.type === 'speech_stopped').length).toBe(utterances);
    expect(session.metrics.finalTranscript.count).toBe(utterances);
    // The run carries every final segment (History shows the transcript from it, offline).
    const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
    const output = run.output as unknown as LiveTranscriptOutput;
    expect(output.object).toBe('live_transcript');
    expect(output.channels.map((c) => c.channel)).toEqual([0]);
    expect(output.channels[0].segments).toEqual(channel0.finals);
  }, 120_000);

  it('goes on across a reload: the re-attached window starts from the snapshot and the transcript continues', async () => {
    const first = await speechPcm(['Good morning to everybody in the room.']);
    const second = await speechPcm(['This sentence comes after the reload.']);
    const id = await env.app.live.start('transcription', { query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
    const before = await attachWindow(env.app, id);
    const { url, token } = await frameChannel();
    await runMicClient({ url, token, mic: before.state().streams.mic, pcm: first, intervalMs: 5 }, env.dataDir);
    await before.until(() => before.state().channels[0]?.finals.some((f) => f.utterance) ?? false);
    const seenBefore = structuredClone(before.state().channels[0].finals);
    before.attachment.detach(); // the reload: this window goes away, the session does not

    const after = await attachWindow(env.app, id);
    expect(after.state().status).toBe('listening');
    expect(after.state().channels[0].finals.slice(0, seenBefore.length)).toEqual(seenBefore);
    await runMicClient({ url, token, mic: after.state().streams.mic, pcm: second, intervalMs: 5 }, env.dataDir);
    await env.app.live.stop(id);
    await after.until(() => after.ended());
    const finals = after.state().channels[0].finals;
    expect(after.gaps()).toBe(0);
    expect(finals.slice(0, seenBefore.length)).toEqual(seenBefore);
    expect(finals.filter((f) => f.utterance).length).toBeGreaterThan(seenBefore.filter((f) => f.utterance).length);
    // The detached window got nothing after it left: its view ends where it detached.
    expect(before.state().channels[0].finals).toEqual(seenBefore);
    const pcm = await microphoneTrack(after.state().runId);
    expect(pcm.byteLength).toBe(Math.floor(first.byteLength / 640) * 640 + Math.floor(second.byteLength / 640) * 640);
  }, 120_000);

  it('completes with no dropped frame while main is blocked 200 ms every second', async () => {
    const lines: string[] = [];
    const stopBlocking = startBlockMainHook({ WORKBENCH_TEST_BLOCK_MAIN_MS: '200' }, (line) => lines.push(line));
    try {
      expect(lines.join('\n')).toMatch(/TEST HOOK/);
      const id = await env.app.live.start('transcription', { query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
      const win = await attachWindow(env.app, id);
      const { url, token } = await frameChannel();
      // Twice real time, so the session spans several of main's blocked stretches.
      const mic = await runMicClient({ url, token, mic: win.state().streams.mic, pcm: speech, intervalMs: 10 }, env.dataDir);
      expect(mic.sent).toBe(mic.frames);
      expect(mic.stats.queue.droppedFull + mic.stats.queue.droppedStale).toBe(0);
      await env.app.live.stop(id);
      await win.until(() => win.ended());
      expect(win.state().end?.incomplete).toBe(false);
      expect(win.state().channels[0].finals.filter((f) => f.utterance).length).toBeGreaterThanOrEqual(2);
      const pcm = await microphoneTrack(win.state().runId);
      expect(pcm.equals(speech.subarray(0, mic.frames * 640))).toBe(true);
    } finally {
      stopBlocking();
    }
  }, 120_000);

  it('a service socket that closes mid-utterance ends the session with the transcript so far kept and marked; the key stays out of the page', async () => {
    // A service that finishes one utterance, starts a second, then drops the connection.
    const KEY = 'sk-live-drop-0123456789';
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    let authorization: string | undefined;
    wss.on('connection', (ws, req) => {
      authorization = req.headers.authorization;
      ws.send(JSON.stringify({ type: 'transcript.created' }));
      let chunks = 0;
      ws.on('message', (data, binary) => {
        if (!binary) return;
        chunks++;
        if (chunks === 3) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'hello wor', is_final: false }));
        if (chunks === 6) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'hello world', is_final: true, speech_final: true, start: 0, duration: 0.6 }));
        if (chunks === 9) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'and then', is_final: false }));
        if (chunks === 12) ws.terminate();
      });
    });
    await new Promise((r) => wss.once('listening', r));
    try {
      const port = (wss.address() as AddressInfo).port;
      const profile = await env.app.handlers.connections.save({ name: 'Dropping service', baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY }, CTX);
      const id = await env.app.live.start('transcription', { connectionId: profile.id, query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
      const win = await attachWindow(env.app, id);
      expect(JSON.stringify(win.chunks)).not.toContain(KEY);
      const { url, token } = await frameChannel();
      await runMicClient({ url, token, mic: win.state().streams.mic, pcm: speech, intervalMs: 5 }, env.dataDir);
      await win.until(() => win.ended());

      expect(authorization).toBe(`Bearer ${KEY}`);
      const state = win.state();
      expect(state.status).toBe('failed');
      expect(state.end?.incomplete).toBe(true);
      expect(state.end?.message).toMatch(/transcript so far is kept/);
      expect(state.channels[0].finals.map((f) => f.text)).toEqual(['hello world']);
      expect(state.channels[0].interim).toBe('and then');
      const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
      expect(run.status).not.toBe('ok');
      expect(run.error?.message).toMatch(/transcript so far is kept/);
      expect(JSON.stringify(run)).not.toContain(KEY);
      const pcm = await microphoneTrack(state.runId);
      expect(pcm.byteLength).toBeGreaterThanOrEqual(9 * 3200);
    } finally {
      wss.close();
    }
  }, 120_000);

  it('a service message over the 16 MiB frame limit ends the session saying so, with the transcript so far kept and marked', async () => {
    // A service that finishes one utterance, then sends one message bigger than the workbench reads.
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    wss.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'transcript.created' }));
      let chunks = 0;
      ws.on('message', (data, binary) => {
        if (!binary) return;
        chunks++;
        if (chunks === 6) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'hello world', is_final: true, speech_final: true, start: 0, duration: 0.6 }));
        if (chunks === 9) ws.send(JSON.stringify({ type: 'transcript.partial', text: 'x'.repeat(17 * 1024 * 1024), is_final: false }));
      });
    });
    await new Promise((r) => wss.once('listening', r));
    try {
      const port = (wss.address() as AddressInfo).port;
      const profile = await env.app.handlers.connections.save({ name: 'Oversize service', baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sk-live-oversize-0123456789' }, CTX);
      const id = await env.app.live.start('transcription', { connectionId: profile.id, query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
      const win = await attachWindow(env.app, id);
      const { url, token } = await frameChannel();
      await runMicClient({ url, token, mic: win.state().streams.mic, pcm: speech, intervalMs: 5 }, env.dataDir);
      await win.until(() => win.ended());

      const state = win.state();
      expect(state.status).toBe('failed');
      expect(state.end?.incomplete).toBe(true);
      expect(state.end?.message).toMatch(/sent a WebSocket message larger than 16 MiB/);
      expect(state.end?.message).toMatch(/transcript so far is kept/);
      expect(state.channels[0].finals.map((f) => f.text)).toEqual(['hello world']);
      const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
      expect(run.status).not.toBe('ok');
      expect(run.error?.message).toMatch(/larger than 16 MiB/);
      expect((await microphoneTrack(state.runId)).byteLength).toBeGreaterThanOrEqual(9 * 3200);
    } finally {
      wss.close();
    }
  }, 120_000);

  it('finalize makes the utterance final at once; mute sends silence (no words, a silent track) until unmuted', async () => {
    const noPause = await speechPcm(['Please finish this sentence now.'], 16_000, 0);
    const id = await env.app.live.start('transcription', { query: QUERY, source: { kind: 'page' } }, { origin: 'window' });
    const win = await attachWindow(env.app, id);
    const { url, token } = await frameChannel();
    const mic = win.state().streams.mic;
    await runMicClient({ url, token, mic, pcm: noPause, intervalMs: 5 }, env.dataDir);
    // The service waits for silence (or finalize) before an utterance's final: no audio comes after the speech.
    await win.until(() => (win.state().channels[0]?.interim ?? '') !== '' || (win.state().channels[0]?.finals.length ?? 0) > 0);
    expect(win.state().channels[0].finals.some((f) => f.utterance)).toBe(false);
    await win.attachment.control({ type: 'finalize' });
    await win.until(() => win.state().channels[0].finals.some((f) => f.utterance));

    await win.attachment.control({ type: 'mute', muted: true });
    await win.until(() => win.state().muted);
    const utterances = win.state().channels[0].finals.length;
    await runMicClient({ url, token, mic, pcm: speech, intervalMs: 5 }, env.dataDir);
    await win.attachment.control({ type: 'finalize' });
    await env.app.live.stop(id);
    await win.until(() => win.ended());
    const state = win.state();
    expect(state.channels[0].finals.slice(utterances).filter((f) => f.text.trim() !== '')).toEqual([]);
    const pcm = await microphoneTrack(state.runId);
    const spoken = Math.floor(noPause.byteLength / 640) * 640;
    expect(pcm.byteLength).toBe(spoken + Math.floor(speech.byteLength / 640) * 640);
    expect(pcm.subarray(spoken).every((b) => b === 0)).toBe(true);
    expect(pcm.subarray(0, spoken).equals(noPause.subarray(0, spoken))).toBe(true);
  }, 120_000);

  it('a refused key reaches the starter as the service’s error (api_error, its status and words), not internal; the key stays out of it', async () => {
    const state = await env.app.handlers.connections.list(undefined, CTX);
    const sandbox = state.profiles.find((p) => p.kind === 'sandbox')!;
    const wrongKey = 'sk-not-the-sandbox-key-0042';
    const saved = await env.app.handlers.connections.save({ name: 'Wrong key', baseUrl: sandbox.baseUrl, apiKey: wrongKey }, CTX);
    const started = env.app.live.start('transcription', { query: QUERY, source: { kind: 'page' }, connectionId: saved.id }, { origin: 'window' });
    const failure = await started.then(() => null, (err: unknown) => err as { error: Record<string, unknown> });
    // The sandbox answers a wrong key as the live service does: 400, "Incorrect API key provided" (the key refused: Connections).
    expect(failure?.error).toMatchObject({ code: 'api_error', status: 400, serviceCode: 'Client specified an invalid argument', requestId: expect.any(String) });
    expect(failure?.error.message).toMatch(/^The WebSocket to .+ was refused\. The service refused the API key \(400\): Incorrect API key provided: sk\*\*\*42\. .* Check the key in Connections\.$/);
    expect(JSON.stringify(failure?.error)).not.toContain(wrongKey);
    // The session is gone, recorded as failed with the same error.
    expect(env.app.live.list()).toEqual([]);
  });

  it('refuses a query that breaks the spec before anything starts', async () => {
    await expect(env.app.live.start('transcription', { query: { sample_rate: 16_000, smart_turn_timeout: 5 }, source: { kind: 'page' } }, { origin: 'window' })).rejects.toMatchObject({ error: { code: 'invalid_input' } });
  });
});

/**
 * Live transcription of two channels: a stereo WAV made here with the eSpeak NG CLI and sox, a
 * different voice on each channel (the left speaks first, the right only after the left fell
 * silent), sent interleaved by a page's microphone (mic-client.ts) through the media process to the
 * sandbox's WebSocket /v1/stt with `channels: 2`. Each channel gets its own transcript (its words
 * inside its own speech, a `transcript.done` each), the recording is a stereo track holding exactly
 * what was sent. Opus live input is refused with the reason. Counts and order only, never times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRecord } from '../../../shared/contract/history';
import type { RunRecord } from '../../../shared/contract/runs';
import { parseWav } from '../../../shared/audio/wav';
import { LIVE_OPUS_REFUSAL, transcriptText } from '../../../shared/live-transcription';
import { readPcm16Wav } from '../../unit/main/services/recording/wav-check';
import { attachWindow, runMicClient, startLiveApp } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
let env: Awaited<ReturnType<typeof startLiveApp>>;
let stereo: Buffer;
/** Seconds: the left channel speaks before, the right after. */
let leftEnds: number;
let rightStarts: number;

/** `text` spoken by the espeak-ng CLI in `voice` at 16 kHz mono, with `before`/`after` seconds of silence (sox pads). */
function spoken(dir: string, name: string, voice: string, text: string, before: number, after: number): string {
  const raw = join(dir, `${name}-raw.wav`);
  const out = join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-w', raw, text]);
  execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', out, 'pad', String(before), String(after)]);
  return out;
}

function seconds(file: string): number {
  return Number(execFileSync('soxi', ['-D', file]).toString().trim());
}

beforeAll(async () => {
  env = await startLiveApp();
  const speechLeft = spoken(env.dataDir, 'left', 'en-us', 'The quick brown fox jumps over the lazy dog.', 0, 0);
  leftEnds = seconds(speechLeft);
  rightStarts = leftEnds + 1.5;
  const right = spoken(env.dataDir, 'right', 'en+m3', 'Seven silver spoons were found beneath the table.', rightStarts, 1.5);
  const file = join(env.dataDir, 'two-voices-stereo.wav');
  // -M merges the inputs as channels: left then right; the shorter is padded with silence.
  execFileSync('sox', ['-M', speechLeft, right, file]);
  const wav = parseWav(readFileSync(file));
  if (!wav.ok) throw new Error(wav.error.message);
  expect(wav.value.channels).toBe(2);
  expect(wav.value.sampleRate).toBe(16_000);
  stereo = Buffer.from(wav.value.samples.buffer, wav.value.samples.byteOffset, wav.value.samples.byteLength);
}, 60_000);
afterAll(() => env?.close());

describe('live transcription of two channels', () => {
  it('transcribes each channel of an interleaved stereo microphone on its own: one transcript each, the stereo track kept', async () => {
    const id = await env.app.live.start('transcription', { query: { sample_rate: 16_000, interim_results: true, endpointing: 300, channels: 2 }, source: { kind: 'page' } }, { origin: 'window' });
    const win = await attachWindow(env.app, id);
    expect(win.state()).toMatchObject({ status: 'listening', audioChannels: 2 });
    const channel = await env.plane.channel();
    if (!channel.ok || channel.value.transport !== 'websocket') throw new Error(JSON.stringify(channel));
    const mic = await runMicClient({ url: channel.value.url, token: channel.value.token, mic: win.state().streams.mic, pcm: stereo, channels: 2, intervalMs: 5 }, env.dataDir);
    expect(mic.sent).toBe(mic.frames);
    await env.app.live.stop(id);
    await win.until(() => win.ended());

    const state = win.state();
    expect(state.status).toBe('ended');
    expect(state.channels.map((c) => c.channel)).toEqual([0, 1]);
    const [left, right] = state.channels;
    // Each channel's words lie inside its own speech: the left's before the right begins, the right's after.
    const leftWords = left!.finals.flatMap((f) => f.words);
    const rightWords = right!.finals.flatMap((f) => f.words);
    expect(leftWords.length).toBeGreaterThan(2);
    expect(rightWords.length).toBeGreaterThan(2);
    expect(Math.max(...leftWords.map((w) => w.end))).toBeLessThan(rightStarts);
    expect(Math.min(...rightWords.map((w) => w.start))).toBeGreaterThan(leftEnds);
    expect(transcriptText(left!)).not.toBe(transcriptText(right!));
    // One transcript.done per channel, each with the audio's whole length.
    const done = win.events().filter((e) => e.type === 'done');
    expect(done.map((e) => e.channel).sort()).toEqual([0, 1]);
    expect(left!.doneDuration).toBeCloseTo(stereo.byteLength / 4 / 16_000, 1);

    // History: a stereo microphone track with exactly the interleaved audio the page sent.
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const track = session.tracks.find((t) => t.direction === 'out' && t.name === 'microphone');
    const hash = /\/media\/([0-9a-f]+)/.exec(track!.media!.url)?.[1];
    const wav = readPcm16Wav(readFileSync(env.app.media.blobs.pathOf(hash!)));
    expect(wav.channels).toBe(2);
    const sent = Buffer.from(wav.samples.buffer, wav.samples.byteOffset, wav.samples.byteLength);
    expect(sent.equals(stereo.subarray(0, mic.frames * 1280))).toBe(true);
    const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
    expect(run.promptPreview).toBe('Live microphone (page) · 2 channels');
  }, 120_000);

  it('plays a stereo WAV chosen by the user as the microphone (the file source) and finishes at its end, each side its own column', async () => {
    const { ref } = await env.app.userFiles.register(join(env.dataDir, 'two-voices-stereo.wav'));
    const id = await env.app.live.start('transcription', { query: { sample_rate: 16_000, interim_results: true, endpointing: 300, channels: 2 }, source: { kind: 'file', ref, speed: 4 } }, { origin: 'window' });
    const win = await attachWindow(env.app, id);
    // No stop: the session ends by itself once the file was sent and the service said its last words.
    await win.until(() => win.ended());
    const state = win.state();
    expect(state.status).toBe('ended');
    expect(state.end?.incomplete).toBe(false);
    expect(state.channels.map((c) => c.channel)).toEqual([0, 1]);
    const leftWords = state.channels[0]!.finals.flatMap((f) => f.words);
    const rightWords = state.channels[1]!.finals.flatMap((f) => f.words);
    expect(leftWords.length).toBeGreaterThan(2);
    expect(rightWords.length).toBeGreaterThan(2);
    expect(Math.max(...leftWords.map((w) => w.end))).toBeLessThan(rightStarts);
    expect(Math.min(...rightWords.map((w) => w.start))).toBeGreaterThan(leftEnds);
    expect(win.events().filter((e) => e.type === 'done').map((e) => e.channel).sort()).toEqual([0, 1]);
    // The recorded track is the whole file (padded to a whole 20 ms frame), both sides.
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const track = session.tracks.find((t) => t.direction === 'out' && t.name === 'microphone');
    const wav = readPcm16Wav(readFileSync(env.app.media.blobs.pathOf(/\/media\/([0-9a-f]+)/.exec(track!.media!.url)![1]!)));
    expect(wav.channels).toBe(2);
    expect(wav.samples.length).toBe(Math.ceil(stereo.byteLength / 1280) * 640);
    expect(Buffer.from(wav.samples.buffer, wav.samples.byteOffset, stereo.byteLength).equals(stereo)).toBe(true);
    const run = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
    expect(run.promptPreview).toBe('Live file (two-voices-stereo.wav) · 2 channels');
  }, 120_000);

  it('refuses Opus live input with the reason and what to use instead', async () => {
    // (Stereo from a native device is taken now: test/audio/native-live-transcription.test.ts.)
    const opus = await env.app.live.start('transcription', { query: { sample_rate: 16_000, encoding: 'opus' }, source: { kind: 'page' } }, { origin: 'window' }).catch((e: unknown) => e);
    expect((opus as { error?: { message: string } }).error?.message ?? String(opus)).toContain(LIVE_OPUS_REFUSAL);
  }, 60_000);
});

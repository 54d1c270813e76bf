/**
 * Server VAD on /v1/realtime (turns/ plugged into the session), checked raw with real speech
 * (espeak-ng, 24 kHz PCM, known silences around it) sent in 20 ms appends: speech_started and
 * speech_stopped on the audio's own clock, the turn committed and answered by itself, its input
 * transcription, and barge-in: speech while an answer is spoken cancels it (turn_detected).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect, type RtClient } from './client';

const KEY = 'sk-rt-vad-1';
let sb: SandboxServer;
let paced: SandboxServer;
let dir: string;
/** 500 ms of silence, the phrase, 1 s of silence: PCM16 LE mono 24 kHz. */
let clip: Buffer;
let speechMs: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rt-vad-'));
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'say.wav'), 'What is the weather like in Lisbon today?']);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'say.wav'), '-ar', '24000', '-ac', '1', '-f', 's16le', join(dir, 'say.pcm')]);
  const speech = readFileSync(join(dir, 'say.pcm'));
  speechMs = (speech.length / 2 / 24000) * 1000;
  clip = Buffer.concat([Buffer.alloc(24000), speech, Buffer.alloc(48000)]);
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity } });
  paced = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: 0 } });
}, 60_000);
afterAll(async () => {
  await sb.close();
  await paced.close();
  rmSync(dir, { recursive: true, force: true });
});

function stream(c: RtClient, pcm: Buffer): void {
  for (let at = 0; at < pcm.length; at += 960) c.send({ type: 'input_audio_buffer.append', audio: pcm.subarray(at, at + 960).toString('base64') });
}

describe('server VAD', () => {
  it('detects the turn on the audio clock, commits it, transcribes it and answers by itself', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    c.send({ type: 'session.update', session: { turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 }, audio: { input: { transcription: { model: 'svc-transcribe' } } } } });
    await c.until('session.updated');
    const from = c.events.length;
    stream(c, clip);
    const done = await c.until('response.done');
    const types = c.types(from).filter((t) => t !== 'ping');
    const order = ['input_audio_buffer.speech_started', 'input_audio_buffer.speech_stopped', 'input_audio_buffer.committed', 'conversation.item.added', 'conversation.item.input_audio_transcription.completed', 'response.created', 'response.done'];
    expect(order.map((t) => types.indexOf(t))).toEqual([...order.map((t) => types.indexOf(t))].sort((a, b) => a - b));
    expect(order.every((t) => types.includes(t))).toBe(true);
    const started = c.events.find((e) => e.type === 'input_audio_buffer.speech_started') as Record<string, any>;
    const stopped = c.events.find((e) => e.type === 'input_audio_buffer.speech_stopped') as Record<string, any>;
    const committed = c.events.find((e) => e.type === 'input_audio_buffer.committed') as Record<string, any>;
    // Speech begins at 500 ms: the committed audio starts one prefix padding earlier.
    expect(started.audio_start_ms).toBeGreaterThanOrEqual(500 - 300 - 20);
    expect(started.audio_start_ms).toBeLessThanOrEqual(500 - 300 + 120);
    // It ends with the phrase (eSpeak trails a little silence) plus the silence duration.
    expect(stopped.audio_end_ms).toBeGreaterThan(500 + speechMs - 400 + 500);
    expect(stopped.audio_end_ms).toBeLessThanOrEqual(500 + speechMs + 500 + 20);
    expect(committed.item_id).toBe(started.item_id);
    expect(stopped.item_id).toBe(started.item_id);
    const transcript = c.events.find((e) => e.type === 'conversation.item.input_audio_transcription.completed') as Record<string, any>;
    expect(transcript.item_id).toBe(started.item_id);
    expect(transcript.transcript.length).toBeGreaterThan(3);
    expect(c.events.some((e) => e.type === 'conversation.item.input_audio_transcription.updated')).toBe(true);
    expect(done.response.status).toBe('completed');
    // The answer reads the transcript (synthetic words about them), spoken.
    expect(done.response.output[0].content[0].transcript).toContain('synthetic');
    c.close();
  });

  it('barge-in: speech while the answer is spoken cancels it with reason turn_detected', async () => {
    const c = await connect(paced, { headers: { authorization: `Bearer ${KEY}` } });
    c.send({ type: 'session.update', session: { turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 } } });
    await c.until('session.updated');
    stream(c, clip);
    await c.until('response.output_audio.delta', 2);
    // The user speaks again, still speaking (no trailing silence yet: no commit): the answer stops.
    const speaking = clip.length - 48000;
    stream(c, clip.subarray(0, speaking));
    const first = await c.until('response.done');
    expect(first.response.status).toBe('cancelled');
    expect(first.response.status_details).toEqual({ type: 'cancelled', reason: 'turn_detected' });
    expect(c.events.filter((e) => e.type === 'input_audio_buffer.committed')).toHaveLength(1);
    const types = c.types();
    expect(types.indexOf('input_audio_buffer.speech_started', types.indexOf('response.created'))).toBeLessThan(types.indexOf('response.done'));
    // The second turn ends and is answered in its turn.
    stream(c, clip.subarray(speaking));
    const second = await c.until('response.created', 2);
    expect(second.response.id).not.toBe(first.response.id);
    c.close();
  });

  it('idle_timeout_ms: a silent turn (timeout_triggered, committed) and a spoken check-in', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    c.send({ type: 'session.update', session: { turn_detection: { type: 'server_vad', idle_timeout_ms: 300 } } });
    await c.until('session.updated');
    // A little audio so the silent turn has a position: 200 ms of silence.
    stream(c, Buffer.alloc(9600));
    const done = await c.until('response.done');
    const from = c.types().indexOf('session.updated') + 1;
    const types = c.types(from).filter((t) => t !== 'ping');
    expect(types.slice(0, 4)).toEqual(['input_audio_buffer.timeout_triggered', 'input_audio_buffer.committed', 'conversation.item.added', 'response.created']);
    const fired = c.events.find((e) => e.type === 'input_audio_buffer.timeout_triggered') as Record<string, any>;
    const committed = c.events.find((e) => e.type === 'input_audio_buffer.committed') as Record<string, any>;
    expect(fired.item_id).toBe(committed.item_id);
    expect(fired.audio_end_ms).toBeGreaterThanOrEqual(fired.audio_start_ms);
    expect(done.response.output[0].content[0].transcript).toBe('Are you still there?');
    // Counting starts again once the check-in has played: the next one says something else.
    const next = await c.until('response.done', 2);
    expect(next.response.output[0].content[0].transcript).toBe('I am still here. Is there anything else I can help you with?');
    c.close();
  });
});

/**
 * The simulated SIP caller hears the model: a call joined over `/v1/realtime?call_id=`, the agent
 * asks for a spoken greeting, and the call's record (`GET /sandbox/calls/{id}`) says the caller
 * heard it: once it has played out, exactly as many milliseconds as the model's µ-law audio
 * lasted, starting after the join, loud enough to be speech, with words the
 * sandbox's STT found in it. After the hangup nothing more is counted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect } from './client';

const KEY = 'sk-rt-sip-hears-1';
const NUMBER = '+18005550143';
let sb: SandboxServer;
let receiver: Server;

beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, realtime: { audioLeadMs: Infinity } });
  const port = (receiver.address() as AddressInfo).port;
  const registered = await post('/v2/phone-numbers', { origin: 'byo_trunk', name: 'Desk', phone_number: NUMBER, webhook: { url: `http://127.0.0.1:${port}/incoming` }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
  expect(registered.status).toBe(200);
});
afterAll(async () => {
  await sb.close();
  await new Promise((resolve) => receiver.close(resolve));
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${sb.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

interface Heard {
  ms: number;
  received_ms: number;
  interruptions: number;
  utterances: Array<{ start_ms: number; end_ms: number }>;
  rms_dbfs: number | null;
  transcript: { text: string; words: number; duration: number } | null;
}

async function record(callId: string): Promise<{ state: string; caller: { heard: Heard } }> {
  const res = await fetch(`${sb.url}/sandbox/calls/${callId}`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { state: string; caller: { heard: Heard } };
}

/** Polls the record until `done` holds (the audio plays out in real time; no time is asserted), or gives the last one after 20 s. */
async function recordWhen(callId: string, done: (h: Heard) => boolean): Promise<Heard> {
  for (let i = 0; ; i++) {
    const { caller } = await record(callId);
    if (done(caller.heard) || i === 200) return caller.heard;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the SIP caller hears the model', () => {
  it("keeps what the caller heard of the model's greeting, in the call's record", async () => {
    // A silent caller who never hangs up: only the model speaks.
    const placed = await post('/sandbox/calls', { to: NUMBER, from: '+14155550100', script: { hangup_after_ms: null } });
    const callId = ((await placed.json()) as { call_id: string }).call_id;
    expect((await record(callId)).caller.heard).toEqual({ ms: 0, received_ms: 0, interruptions: 0, utterances: [], rms_dbfs: null, transcript: null });

    const rt = await connect(sb, { query: `call_id=${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    await rt.until('session.created');
    rt.send({ type: 'response.create', response: { instructions: 'Greet the caller.' } });
    const done = await rt.until('response.done');
    expect(done.response.status).toBe('completed');
    const audioBytes = rt.events.filter((e) => e.type === 'response.output_audio.delta').reduce((n, e) => n + Buffer.from(e.delta, 'base64').length, 0);
    const audioMs = (audioBytes / 8000) * 1000; // µ-law 8 kHz on a call: one byte a sample
    expect(audioMs).toBeGreaterThan(500);

    const heard = await recordWhen(callId, (h) => h.received_ms > 0 && h.ms >= h.received_ms);
    expect(heard.received_ms).toBe(Math.round(audioMs));
    expect(heard.interruptions).toBe(0);
    expect(heard.ms).toBe(Math.round(audioMs));
    // One answer: one utterance unless a part was synthesised late enough (over 200 ms) to leave a pause on the line.
    expect(heard.utterances.length).toBeGreaterThanOrEqual(1);
    expect(heard.utterances[0].start_ms).toBeGreaterThanOrEqual(0);
    // Start and end are each rounded to the ms (the call's clock is fractional), so their difference may be 1 below the rounded length.
    expect(heard.utterances.at(-1)!.end_ms - heard.utterances[0].start_ms).toBeGreaterThanOrEqual(Math.round(audioMs) - 1);
    expect(heard.rms_dbfs).toBeGreaterThan(-40);
    expect(heard.transcript?.words).toBeGreaterThan(0);

    expect((await post(`/v1/realtime/calls/${callId}/hangup`, {})).status).toBe(200);
    await rt.closed;
    const ended = await record(callId);
    expect(ended.state).toBe('ended');
    expect(ended.caller.heard.ms).toBe(Math.round(audioMs));
  });

  it('hears the whole answer when the agent asks for PCM at 24 kHz: the line gets it resampled to 8 kHz, its last samples too', async () => {
    const placed = await post('/sandbox/calls', { to: NUMBER, from: '+14155550102', script: { hangup_after_ms: null } });
    const callId = ((await placed.json()) as { call_id: string }).call_id;
    const rt = await connect(sb, { query: `call_id=${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    await rt.until('session.created');
    rt.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { format: { type: 'audio/pcm', rate: 24000 } } } } });
    await rt.until('session.updated');
    rt.send({ type: 'response.create', response: { instructions: 'Greet the caller.' } });
    const done = await rt.until('response.done');
    expect(done.response.status).toBe('completed');
    const samples24k = rt.events.filter((e) => e.type === 'response.output_audio.delta').reduce((n, e) => n + Buffer.from(e.delta, 'base64').length / 2, 0);
    expect(samples24k).toBeGreaterThan(12_000);
    // A third as many samples at 8 kHz (shared/audio's resampler: ceil(n/3) once flushed), a byte each in µ-law.
    const expectedMs = Math.round(Math.ceil(samples24k / 3) / 8);
    const heard = await recordWhen(callId, (h) => h.received_ms >= expectedMs && h.ms >= h.received_ms);
    expect(heard.received_ms).toBe(expectedMs);
    expect((await post(`/v1/realtime/calls/${callId}/hangup`, {})).status).toBe(200);
    await rt.closed;
  });

  it('a caller who waits for the greeting speaks only once it has played out to them', async () => {
    const placed = await post('/sandbox/calls', { to: NUMBER, from: '+14155550101', script: { say: 'Hi, I am calling about my booking.', wait_for_greeting: true, hangup_after_ms: null } });
    const callId = ((await placed.json()) as { call_id: string }).call_id;
    const rt = await connect(sb, { query: `call_id=${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    await rt.until('session.created');
    rt.send({ type: 'response.create', response: { instructions: 'Greet the caller.' } });
    await rt.until('response.done');
    // The caller's speech reaches the server's VAD after the greeting.
    const started = await rt.until('input_audio_buffer.speech_started');
    const { caller } = (await record(callId)) as unknown as { caller: { heard: Heard; script_started_at_ms: number } };
    const greeting = caller.heard.utterances[0];
    expect(caller.script_started_at_ms).toBeGreaterThanOrEqual(greeting.end_ms + 300);
    // audio_start_ms is the onset minus the prefix padding (333 ms by default): the onset is not before the script began.
    expect(started.audio_start_ms + 333).toBeGreaterThanOrEqual(caller.script_started_at_ms);
    expect((await post(`/v1/realtime/calls/${callId}/hangup`, {})).status).toBe(200);
    await rt.closed;
  });
});

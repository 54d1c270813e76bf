/**
 * `session.update` on /v1/realtime checked raw: every rule answered by an `error` event (type,
 * code, message, param, the client's event_id) that leaves the session as it was and open; a good
 * update answered by the full effective session; voices built in and the team's custom ones;
 * turn_detection ranges or null; audio/pcm at each rate, audio/pcmu, audio/pcma; tools flat or nested.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../../main/sandbox/index';
import { connect, type RtClient } from './client';

const KEY = 'sk-rt-update-1';
const OTHER = 'sk-rt-update-2';
let sb: SandboxServer;
let dir: string;
let customVoice = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rt-update-'));
  execFileSync('espeak-ng', ['-v', 'en+m3', '-w', join(dir, 'ref.wav'), 'This is my reference recording.']);
  sb = await startSandbox({ keys: [{ key: KEY, team: 'team-a' }, { key: OTHER, team: 'team-b' }], tokenDelayMs: 0 });
  const form = new FormData();
  form.append('name', 'Narrator');
  form.append('file', new Blob([new Uint8Array(readFileSync(join(dir, 'ref.wav')))]), 'ref.wav');
  const res = await fetch(`${sb.url}/v1/custom-voices`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
  expect(res.status).toBe(201);
  customVoice = ((await res.json()) as { voice_id: string }).voice_id;
}, 60_000);
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Sends a session.update and returns the answer (session.updated or error). */
async function update(c: RtClient, session: unknown): Promise<Record<string, any>> {
  const eventId = `evt_${++n}`;
  const before = c.events.length;
  c.send({ type: 'session.update', event_id: eventId, session });
  await new Promise<void>((resolve) => {
    const check = () => (c.events.slice(before).some((e) => e.type === 'session.updated' || e.type === 'error') ? resolve() : setTimeout(check, 5));
    check();
  });
  const answer = c.events.slice(before).find((e) => e.type === 'session.updated' || e.type === 'error') as Record<string, any>;
  if (answer.type === 'error') expect(answer.error.event_id).toBe(eventId);
  return answer;
}

describe('session.update', () => {
  it('answers with the full effective session, merged over what was set before', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    await c.until('conversation.created');
    const a = await update(c, { instructions: 'You are terse.', voice: 'ARA' });
    expect(a.type).toBe('session.updated');
    expect(a.session).toMatchObject({ instructions: 'You are terse.', voice: 'ara', model: 'svc-voice-latest', audio: { output: { voice: 'ara', format: { type: 'audio/pcm', rate: 24000 } } } });
    const b = await update(c, {
      turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 100, silence_duration_ms: 800, idle_timeout_ms: 8000 },
      audio: { input: { format: { type: 'audio/pcma' }, transcription: { model: 'svc-transcribe', language_hint: 'en', keyterms: ['Acme'] } }, output: { format: { type: 'audio/pcmu', rate: 8000 }, speed: 1.2 } },
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: {} } } },
        { type: 'web_search' },
      ],
    });
    expect(b.type).toBe('session.updated');
    // Earlier settings stay; the new ones are all there, nested tools flattened.
    expect(b.session.instructions).toBe('You are terse.');
    expect(b.session.voice).toBe('ara');
    expect(b.session.turn_detection).toEqual({ type: 'server_vad', threshold: 0.5, prefix_padding_ms: 100, silence_duration_ms: 800, idle_timeout_ms: 8000, create_response: true, interrupt_response: true });
    expect(b.session.audio.input.format).toEqual({ type: 'audio/pcma', rate: 8000 });
    expect(b.session.audio.input.transcription).toEqual({ model: 'svc-transcribe', language_hint: 'en', keyterms: ['Acme'] });
    expect(b.session.audio.output).toMatchObject({ format: { type: 'audio/pcmu', rate: 8000 }, speed: 1.2 });
    expect(b.session.tools).toEqual([
      { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      { type: 'function', name: 'lookup_order', description: '', parameters: { type: 'object', properties: {} } },
      { type: 'web_search' },
    ]);
    const manual = await update(c, { audio: { input: { turn_detection: null } } });
    expect(manual.session.turn_detection).toBeNull();
    expect(manual.session.audio.input.turn_detection).toBeNull();
    c.close();
  });

  it('accepts audio/pcm at every rate', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    for (const rate of [8000, 16000, 22050, 24000, 32000, 44100, 48000]) {
      const a = await update(c, { audio: { input: { format: { type: 'audio/pcm', rate } }, output: { format: { type: 'audio/pcm', rate } } } });
      expect(a.type, String(rate)).toBe('session.updated');
      expect(a.session.audio.input.format).toEqual({ type: 'audio/pcm', rate });
      expect(a.session.audio.output.format).toEqual({ type: 'audio/pcm', rate });
    }
    c.close();
  });

  it('speaks with the team\'s custom voices, not another team\'s', async () => {
    const mine = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    expect((await update(mine, { voice: customVoice.toUpperCase() })).session.voice).toBe(customVoice);
    mine.close();
    const theirs = await connect(sb, { headers: { authorization: `Bearer ${OTHER}` } });
    const refused = await update(theirs, { voice: customVoice });
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'session.voice' });
    theirs.close();
  });

  it('refuses each broken rule with an error event, leaving the session unchanged and open', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    const cases: Array<[unknown, string, string, string]> = [
      [{ voice: 'bob' }, 'session.voice', 'invalid_value', "Unknown voice 'bob'"],
      [{ audio: { output: { voice: 'bob' } } }, 'session.audio.output.voice', 'invalid_value', "Unknown voice 'bob'"],
      [{ voice: 'eve', audio: { output: { voice: 'rex' } } }, 'session.audio.output.voice', 'invalid_value', 'disagree'],
      [{ voice: 7 }, 'session.voice', 'invalid_type', 'must be a string'],
      [{ turn_detection: { type: 'server_vad', threshold: 0.95 } }, 'session.turn_detection.threshold', 'invalid_value', 'between 0.1 and 0.9; got 0.95'],
      [{ turn_detection: { threshold: 0.05 } }, 'session.turn_detection.threshold', 'invalid_value', 'got 0.05'],
      [{ turn_detection: { prefix_padding_ms: 10001 } }, 'session.turn_detection.prefix_padding_ms', 'invalid_value', 'between 0 and 10000; got 10001'],
      [{ turn_detection: { silence_duration_ms: -1 } }, 'session.turn_detection.silence_duration_ms', 'invalid_value', 'got -1'],
      [{ turn_detection: { silence_duration_ms: 1.5 } }, 'session.turn_detection.silence_duration_ms', 'invalid_type', 'must be an integer'],
      [{ turn_detection: { idle_timeout_ms: -5 } }, 'session.turn_detection.idle_timeout_ms', 'invalid_value', 'got -5'],
      [{ turn_detection: { type: 'semantic_vad' } }, 'session.turn_detection.type', 'invalid_value', 'must be "server_vad"'],
      [{ turn_detection: 'manual' }, 'session.turn_detection', 'invalid_type', 'or null for manual turns'],
      [{ audio: { input: { format: { type: 'audio/pcm', rate: 11025 } } } }, 'session.audio.input.format.rate', 'invalid_value', 'must be one of 8000, 16000, 22050, 24000, 32000, 44100, 48000'],
      [{ audio: { output: { format: { type: 'audio/pcmu', rate: 16000 } } } }, 'session.audio.output.format.rate', 'invalid_value', 'must be 8000 for audio/pcmu'],
      [{ audio: { input: { format: { type: 'audio/pcma', rate: 24000 } } } }, 'session.audio.input.format.rate', 'invalid_value', 'must be 8000 for audio/pcma'],
      [{ audio: { output: { format: { type: 'audio/opus' } } } }, 'session.audio.output.format.type', 'invalid_value', 'audio/opus is not supported by the sandbox'],
      [{ audio: { output: { format: { type: 'audio/mp3' } } } }, 'session.audio.output.format.type', 'invalid_value', 'must be one of audio/pcm, audio/pcmu, audio/pcma'],
      [{ audio: { output: { speed: 2 } } }, 'session.audio.output.speed', 'invalid_value', 'between 0.7 and 1.5; got 2'],
      [{ audio: { input: { transport: 'binary' } } }, 'session.audio.input.transport', 'invalid_value', 'must be "json"'],
      [{ audio: { input: { transcription: { keyterms: Array.from({ length: 101 }, (_, i) => `t${i}`) } } } }, 'session.audio.input.transcription.keyterms', 'invalid_value', 'holds 101 terms; at most 100'],
      [{ audio: { input: { transcription: { keyterms: ['x'.repeat(51)] } } } }, 'session.audio.input.transcription.keyterms', 'invalid_value', 'each at most 50'],
      [{ tools: [{ type: 'function', description: 'no name' }] }, 'session.tools[0].name', 'missing_required_parameter', 'name must be 1-64 letters'],
      [{ tools: [{ type: 'function', name: 'a b' }] }, 'session.tools[0].name', 'invalid_value', 'got "a b"'],
      [{ tools: [{ type: 'function', name: 'f' }, { type: 'function', function: { name: 'f' } }] }, 'session.tools[1].function.name', 'invalid_value', "'f' is used by another tool"],
      [{ tools: [{ type: 'function', name: 'f', parameters: { type: 'string' } }] }, 'session.tools[0].parameters', 'invalid_value', 'JSON Schema object'],
      [{ tools: [{ type: 'code_interpreter' }] }, 'session.tools[0].type', 'invalid_value', 'must be one of function, web_search'],
      [{ tools: {} }, 'session.tools', 'invalid_type', 'must be an array'],
      [{ tool_choice: { type: 'function', name: 'nope' } }, 'session.tool_choice', 'invalid_value', "names the function 'nope'"],
      [{ model: 'svc-4' }, 'session.model', 'invalid_value', 'must be one of svc-voice-latest'],
      [{ reasoning: { effort: 'low' } }, 'session.reasoning.effort', 'invalid_value', 'must be "high" or "none"'],
      [{ output_modalities: ['video'] }, 'session.output_modalities', 'invalid_value', 'must be ["audio"] or ["text"]'],
      [{ colour: 'red' }, 'session.colour', 'unknown_parameter', "Unknown parameter: 'session.colour'."],
      ['nope', 'session', 'invalid_type', 'session must be an object'],
    ];
    const before = (await update(c, {})).session;
    for (const [session, param, code, message] of cases) {
      const answer = await update(c, session);
      expect({ session, type: answer.type }).toEqual({ session, type: 'error' });
      expect(answer.error, JSON.stringify(session)).toMatchObject({ type: 'invalid_request_error', param, code });
      expect(answer.error.message, JSON.stringify(session)).toContain(message);
    }
    // Several broken rules at once: all named, nothing applied (the good voice either).
    const several = await update(c, { voice: 'rex', turn_detection: { threshold: 2 }, audio: { output: { speed: 9 } } });
    expect(several.error.message).toContain('threshold');
    expect(several.error.message).toContain('speed');
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    expect((await update(c, {})).session).toEqual(before);
    c.close();
  });

  it('answers malformed client events with error events and stays open', async () => {
    const c = await connect(sb, { headers: { authorization: `Bearer ${KEY}` } });
    await c.until('conversation.created');
    c.ws.send('not json');
    c.send({ type: 'session.explode', event_id: 'evt_x' });
    c.send({ no: 'type' });
    c.ws.send(Buffer.from([1, 2, 3]));
    c.send({ type: 'session.update', event_id: 'evt_missing' });
    const last = await c.until('error', 5);
    const errors = c.events.filter((e) => e.type === 'error').map((e) => e.error);
    expect(errors.map((e) => e.code)).toEqual(['invalid_json', 'invalid_event', 'invalid_event', 'invalid_event', 'missing_required_parameter']);
    expect(errors[1]).toMatchObject({ event_id: 'evt_x', param: 'type' });
    expect(errors[1].message).toContain("Unknown event type 'session.explode'");
    expect(last.error.event_id).toBe('evt_missing');
    expect(c.ws.readyState).toBe(c.ws.OPEN);
    c.close();
  });
});

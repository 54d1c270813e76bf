/**
 * Custom voices over raw HTTP: create from a multipart form (clips made by espeak-ng and ffmpeg),
 * the reference checked by decoding (length, format), every metadata rule, list pages, get, PATCH,
 * DELETE, the audio back, per team, speaking with the voice (its pitch follows the reference),
 * and the voices kept across a restart with a state folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../../main/sandbox/audio/decode';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { medianPitch } from '../../../main/sandbox/tts/pitch';

const KEY = 'sk-voices-a-1';
const OTHER = 'sk-voices-b-2';
let sb: SandboxServer;
let dir: string;
const clip = (name: string) => readFileSync(join(dir, name));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'custom-voices-'));
  const text = 'This is my reference recording for a custom voice.';
  // A deep and a high voice, as WAV and MP3; a clip over 120 s; Vorbis (refused).
  execFileSync('espeak-ng', ['-v', 'en+m3', '-p', '10', '-w', join(dir, 'deep.wav'), text]);
  execFileSync('espeak-ng', ['-v', 'en+f4', '-p', '90', '-w', join(dir, 'high.wav'), text]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'high.wav'), join(dir, 'high.mp3')]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=200:duration=121', '-ar', '8000', join(dir, 'long.wav')]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'deep.wav'), '-c:a', 'libvorbis', join(dir, 'vorbis.ogg')]);
  sb = await startSandbox({ keys: [{ key: KEY, team: 'team-a' }, { key: OTHER, team: 'team-b' }], stateDir: join(dir, 'state') });
}, 60_000);
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

function create(fields: Record<string, string>, file: Buffer | null, key = KEY, filename = 'ref.wav') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file)]), filename);
  return fetch(`${sb.url}/v1/custom-voices`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
}

const call = (path: string, init: RequestInit = {}, key = KEY) => fetch(`${sb.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

async function pitchOf(voiceId: string): Promise<number> {
  const res = await call('/v1/tts', { method: 'POST', body: JSON.stringify({ text: 'Hello there, how are you doing today?', language: 'en', voice_id: voiceId, output_format: { codec: 'wav', sample_rate: 16000 } }) });
  expect(res.status).toBe(200);
  const decoded = decodeWav(Buffer.from(((await res.json()) as { audio: string }).audio, 'base64'));
  if (!decoded.ok) throw new Error(decoded.error.message);
  return medianPitch(decoded.audio.channels[0], 16000) ?? 0;
}

describe('custom voices', () => {
  let deep: Record<string, unknown>;
  let high: Record<string, unknown>;

  it('creates voices from WAV and MP3 references, as the spec shapes them', async () => {
    const res = await create({ name: 'Deep Narrator', gender: 'male', use_case: 'narration', tone: 'calm', language: 'en' }, clip('deep.wav'));
    expect(res.status).toBe(201);
    deep = (await res.json()) as Record<string, unknown>;
    expect(deep).toEqual({
      voice_id: expect.stringMatching(/^[a-z0-9]{8}$/),
      name: 'Deep Narrator',
      description: null,
      gender: 'male',
      accent: null,
      age: null,
      language: 'en',
      use_case: 'narration',
      tone: 'calm',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const r2 = await create({ name: 'High', description: 'bright', accent: 'US', age: 'young' }, clip('high.mp3'), KEY, 'high.mp3');
    expect(r2.status).toBe(201);
    high = (await r2.json()) as Record<string, unknown>;
    expect(high).toMatchObject({ gender: 'neutral', language: 'en', use_case: 'conversational', tone: 'friendly', description: 'bright', accent: 'US', age: 'young' });
  });

  it('speaks with a custom voice whose pitch follows its reference', async () => {
    const deepPitch = await pitchOf(String(deep.voice_id).toUpperCase());
    const highPitch = await pitchOf(String(high.voice_id));
    const deepRef = decodeWav(clip('deep.wav'));
    const highRef = decodeWav(clip('high.wav'));
    if (!deepRef.ok || !highRef.ok) throw new Error('reference');
    const refDeep = medianPitch(deepRef.audio.channels[0], deepRef.audio.sampleRate) ?? 0;
    const refHigh = medianPitch(highRef.audio.channels[0], highRef.audio.sampleRate) ?? 0;
    expect(highPitch).toBeGreaterThan(deepPitch * 1.5);
    // Near the reference's own median (within 35%).
    expect(Math.abs(deepPitch - refDeep) / refDeep).toBeLessThan(0.35);
    expect(Math.abs(highPitch - refHigh) / refHigh).toBeLessThan(0.35);
    // On the WebSocket too: the upgrade accepts it.
    const { WebSocket } = await import('ws');
    const ws = new WebSocket(`${sb.url.replace('http', 'ws')}/v1/tts?language=en&voice=${String(deep.voice_id)}`, { headers: { authorization: `Bearer ${KEY}` } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.close();
  });

  it('refuses bad references and metadata, each with its message', async () => {
    const cases: Array<[Record<string, string>, Buffer | null, string]> = [
      [{ name: 'x' }, null, 'file is required'],
      [{}, clip('deep.wav'), 'name is required'],
      [{ name: 'x' }, clip('long.wav'), 'The reference audio is 121.0 seconds long; the limit is 120 seconds'],
      [{ name: 'x' }, clip('vorbis.ogg'), 'Ogg Vorbis audio cannot be decoded'],
      [{ name: 'x' }, Buffer.from('definitely not audio at all'), 'not audio the sandbox recognises'],
      [{ name: 'x', gender: 'other' }, clip('deep.wav'), 'gender must be one of male, female, neutral; got "other"'],
      [{ name: 'x', age: 'ancient' }, clip('deep.wav'), 'age must be one of young, middle-aged, old'],
      [{ name: 'x', use_case: 'podcast' }, clip('deep.wav'), 'use_case must be one of conversational, narration, characters, educational, advertisement, social_media, entertainment'],
      [{ name: 'x', tone: 'angry' }, clip('deep.wav'), 'tone must be one of warm, casual, professional, friendly, authoritative, expressive, calm'],
      [{ name: 'x', language: 'english!' }, clip('deep.wav'), 'language must be a BCP-47 code'],
      [{ name: '' }, clip('deep.wav'), 'name must not be empty'],
      [{ name: 'x', colour: 'blue' }, clip('deep.wav'), 'Unknown form field colour'],
    ];
    for (const [fields, file, message] of cases) {
      const res = await create(fields, file);
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    const json = await call('/v1/custom-voices', { method: 'POST', body: '{}' });
    expect(json.status).toBe(415);
  });

  it('lists a team\'s voices in pages, and hides them from other teams', async () => {
    const page1 = (await (await call('/v1/custom-voices?limit=1')).json()) as { voices: Array<{ voice_id: string }>; pagination_token: string | null };
    expect(page1.voices.map((v) => v.voice_id)).toEqual([deep.voice_id]);
    expect(page1.pagination_token).not.toBeNull();
    const page2 = (await (await call(`/v1/custom-voices?limit=1&pagination_token=${page1.pagination_token}`)).json()) as typeof page1;
    expect(page2).toEqual({ voices: [high], pagination_token: null });
    expect(((await (await call('/v1/custom-voices')).json()) as typeof page1).voices).toHaveLength(2);
    for (const limit of ['0', '1001', '1.5', 'abc']) {
      const res = await call(`/v1/custom-voices?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('limit must be an integer from 1 to 1000');
    }
    expect((await call('/v1/custom-voices?pagination_token=zzzzzzzz')).status).toBe(400);
    expect(await (await call('/v1/custom-voices', {}, OTHER)).json()).toEqual({ voices: [], pagination_token: null });
    expect((await call(`/v1/custom-voices/${String(deep.voice_id)}`, {}, OTHER)).status).toBe(404);
    const tts = await call('/v1/tts', { method: 'POST', body: JSON.stringify({ text: 'hi', language: 'en', voice_id: deep.voice_id }) }, OTHER);
    expect(tts.status).toBe(404);
  });

  it('gets, patches by the rules of 6.1, returns the reference audio, and deletes', async () => {
    const id = String(high.voice_id);
    expect(await (await call(`/v1/custom-voices/${id.toUpperCase()}`)).json()).toEqual(high);
    const patched = await call(`/v1/custom-voices/${id}`, { method: 'PATCH', body: JSON.stringify({ description: null, tone: 'warm', name: 'Bright' }) });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ ...high, description: null, tone: 'warm', name: 'Bright' });
    const bad: Array<[unknown, string]> = [
      [{}, 'Give at least one field to change'],
      [{ name: '' }, 'name must not be empty'],
      [{ name: null }, 'name cannot be cleared (null)'],
      [{ accent: '' }, 'accent must not be empty (send null to clear it)'],
      [{ tone: 'angry' }, 'tone must be one of'],
      [{ file: 'x' }, 'The reference audio of a custom voice cannot change'],
      [{ voice_id: 'abcdefgh' }, 'Unknown field voice_id'],
    ];
    for (const [body, message] of bad) {
      const res = await call(`/v1/custom-voices/${id}`, { method: 'PATCH', body: JSON.stringify(body) });
      expect(res.status, message).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    const audio = await call(`/v1/custom-voices/${id}/audio`);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await audio.arrayBuffer()).equals(clip('high.mp3'))).toBe(true);
    const wav = await call(`/v1/custom-voices/${String(deep.voice_id)}/audio`);
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(await (await call(`/v1/custom-voices/${id}`, { method: 'DELETE' })).json()).toEqual({ deleted: true });
    expect((await call(`/v1/custom-voices/${id}`)).status).toBe(404);
    expect((await call(`/v1/custom-voices/${id}/audio`)).status).toBe(404);
    expect((await call(`/v1/custom-voices/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('keeps voices and their audio across a restart with a state folder', async () => {
    await sb.close();
    // Another port: fetch's kept-alive sockets to the old one are dead.
    sb = await startSandbox({ keys: [{ key: KEY, team: 'team-a' }, { key: OTHER, team: 'team-b' }], stateDir: join(dir, 'state'), port: 0 });
    const list = (await (await call('/v1/custom-voices')).json()) as { voices: Array<{ voice_id: string }> };
    expect(list.voices).toEqual([deep]);
    const audio = await call(`/v1/custom-voices/${String(deep.voice_id)}/audio`);
    expect(Buffer.from(await audio.arrayBuffer()).equals(clip('deep.wav'))).toBe(true);
    expect(await pitchOf(String(deep.voice_id))).toBeLessThan(130);
  });
});

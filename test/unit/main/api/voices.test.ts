import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCustomVoice, deleteCustomVoice, getCustomVoice, getCustomVoiceAudio, listCustomVoices, updateCustomVoice } from '../../../../main/api/voices';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const VOICE = { voice_id: 'abc123xy', name: 'My Narrator', description: null, gender: 'female', accent: null, age: null, language: 'en', use_case: 'narration', tone: 'warm', created_at: '2026-05-02T17:04:05Z' };

describe('api/voices (custom voices)', () => {
  const setup = useLocalClient();
  const dir = mkdtempSync(join(tmpdir(), 'voices-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const clip = join(dir, 'me.wav');
  writeFileSync(clip, Buffer.from('RIFF....WAVEfmt '));

  it('creates with the metadata fields first and the reference file last', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 201, VOICE));
    const result = await createCustomVoice(client, { path: clip, filename: 'me.wav', contentType: 'audio/wav' }, { name: 'My Narrator', gender: 'female', language: 'en', use_case: 'narration', tone: 'warm' });
    expect(result).toMatchObject({ ok: true, value: { voice_id: 'abc123xy', tone: 'warm' } });
    const body = server.received[0]!.raw.toString('latin1');
    const names = [...body.matchAll(/; name="([^"]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(['name', 'gender', 'language', 'use_case', 'tone', 'file']);
    expect(body).toMatch(/filename="me\.wav"\r\nContent-Type: audio\/wav\r\n\r\nRIFF\.\.\.\.WAVEfmt \r\n--/);
  });

  it('refuses metadata outside the enums before sending', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 201, VOICE));
    const bad = await createCustomVoice(client, { path: clip, filename: 'me.wav', contentType: 'audio/wav' }, { name: 'x', tone: 'grumpy' as never });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: expect.stringMatching(/^"tone" must be one of warm/) } });
    expect(server.received).toHaveLength(0);
  });

  it('lists a page with limit and pagination_token, and refuses a limit out of 1-1000', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 200, { voices: [VOICE], pagination_token: 'tok2' }));
    expect(await listCustomVoices(client, { limit: 1, pagination_token: 'tok1' })).toMatchObject({ ok: true, value: { voices: [{ voice_id: 'abc123xy' }], pagination_token: 'tok2' } });
    expect(server.received[0]!.url).toBe('/v1/custom-voices?limit=1&pagination_token=tok1');
    expect(await listCustomVoices(client, { limit: 1001 })).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'limit must be a whole number from 1 to 1000 (got 1001).' } });
    expect(server.received).toHaveLength(1);
  });

  it('gets, patches (null clears; an empty patch is refused) and deletes', async () => {
    const { client, server } = await setup((req, res) => {
      if (req.method === 'DELETE') return sendJson(res, 200, { deleted: true });
      sendJson(res, 200, req.method === 'PATCH' ? { ...VOICE, ...JSON.parse(req.body) } : VOICE);
    });
    expect(await getCustomVoice(client, 'abc123xy')).toMatchObject({ ok: true, value: { name: 'My Narrator' } });
    expect(await updateCustomVoice(client, 'abc123xy', {})).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: expect.stringMatching(/^Change at least one of/) } });
    expect(await updateCustomVoice(client, 'abc123xy', { description: '' })).toMatchObject({ ok: false, error: { message: '"description" cannot be empty; use null to clear it.' } });
    const patched = await updateCustomVoice(client, 'abc123xy', { tone: 'calm', accent: null });
    expect(patched).toMatchObject({ ok: true, value: { tone: 'calm', accent: null } });
    expect(server.received[1]).toMatchObject({ method: 'PATCH', url: '/v1/custom-voices/abc123xy' });
    expect(JSON.parse(server.received[1]!.body)).toEqual({ tone: 'calm', accent: null });
    expect(await deleteCustomVoice(client, 'abc123xy')).toMatchObject({ ok: true, value: { deleted: true } });
    expect(server.received.map((r) => r.method)).toEqual(['GET', 'PATCH', 'DELETE']);
  });

  it('reads the reference audio whole, and refuses one over the cap', async () => {
    const audio = Buffer.alloc(5000, 3);
    const { client, server } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(audio.length) });
      res.end(audio);
    });
    const got = await getCustomVoiceAudio(client, 'abc123xy');
    expect(got.ok && got.value.bytes.equals(audio)).toBe(true);
    expect(got.ok && got.value.contentType).toBe('audio/wav');
    expect(server.received[0]!.url).toBe('/v1/custom-voices/abc123xy/audio');
    expect(await getCustomVoiceAudio(client, 'abc123xy', { maxBytes: 1000 })).toMatchObject({ ok: false, error: { code: 'too_large', message: 'The reference audio is larger than 1000 bytes, more than a 120 s clip can be; nothing was kept.' } });
  });
});

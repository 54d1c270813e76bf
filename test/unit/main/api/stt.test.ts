import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transcribe } from '../../../../main/api/stt';
import { useLocalClient } from './local-client';
import { sendJson, type ReceivedRequest } from './local-server';

const RESULT = { text: 'Galileo was', language: 'en', duration: 2.04, words: [{ text: 'Galileo', start: 0.162, end: 0.667, speaker: 0 }, { text: 'was', start: 0.788, end: 0.909, speaker: 0 }] };

/** The multipart parts of a request, in order: name, filename, and the value as text. */
function parts(req: ReceivedRequest): Array<{ name: string; filename?: string; value: string }> {
  const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))![1]!;
  return req.raw
    .toString('latin1')
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((p) => {
      const [head, ...rest] = p.split('\r\n\r\n');
      const name = /name="([^"]*)"/.exec(head!)![1]!;
      const filename = /filename="([^"]*)"/.exec(head!)?.[1];
      return { name, ...(filename !== undefined ? { filename } : {}), value: rest.join('\r\n\r\n').replace(/\r\n$/, '') };
    });
}

describe('api/stt REST', () => {
  const setup = useLocalClient();
  const dir = mkdtempSync(join(tmpdir(), 'stt-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const wav = join(dir, 'clip.raw');
  writeFileSync(wav, Buffer.from('RAWAUDIOBYTES'));

  it('sends the options as text fields first and the file LAST, keyterm repeated, booleans as strings', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 200, RESULT));
    const result = await transcribe(
      client,
      { file: { path: wav, filename: 'clip.raw', contentType: 'application/octet-stream' } },
      { audio_format: 'pcm', sample_rate: 16000, language: 'en', format: true, diarize: true, filler_words: false, keyterm: ['Galileo', 'Jupiter'] },
    );
    expect(result).toMatchObject({ ok: true, value: { text: 'Galileo was', words: [{ text: 'Galileo', speaker: 0 }, { text: 'was' }] } });
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/v1/stt' });
    const sent = parts(server.received[0]!);
    expect(sent).toEqual([
      { name: 'audio_format', value: 'pcm' },
      { name: 'sample_rate', value: '16000' },
      { name: 'language', value: 'en' },
      { name: 'format', value: 'true' },
      { name: 'diarize', value: 'true' },
      { name: 'filler_words', value: 'false' },
      { name: 'keyterm', value: 'Galileo' },
      { name: 'keyterm', value: 'Jupiter' },
      { name: 'file', filename: 'clip.raw', value: 'RAWAUDIOBYTES' },
    ]);
    expect(result.captured.body).toMatchObject({ multipart: expect.arrayContaining([expect.objectContaining({ name: 'file', filename: 'clip.raw', bytes: 13 })]) });
    // The inspector's record of the upload names the file, never where it lies on disk.
    expect((result.captured.body as { multipart: unknown[] }).multipart.at(-1)).toEqual({ name: 'file', filename: 'clip.raw', contentType: 'application/octet-stream', bytes: 13 });
  });

  it('records a refused upload (a broken field, a missing file) by name, type and size, without its path', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 200, RESULT));
    const refused = await transcribe(client, { file: { path: wav, filename: 'clip.raw', contentType: 'audio/wav' } }, { channels: 9 });
    const missing = await transcribe(client, { file: { path: join(dir, 'gone.wav'), filename: 'gone.wav', contentType: 'audio/wav' } });
    expect(server.received).toHaveLength(0);
    expect(missing).toMatchObject({ ok: false, error: { kind: 'file', message: 'Could not read gone.wav (it does not exist). Nothing was uploaded.' } });
    expect((refused.captured.body as { multipart: unknown[] }).multipart.at(-1)).toEqual({ name: 'file', filename: 'clip.raw', contentType: 'audio/wav', bytes: 13 });
    expect((missing.captured.body as { multipart: unknown[] }).multipart.at(-1)).toEqual({ name: 'file', filename: 'gone.wav', contentType: 'audio/wav', bytes: 0 });
    for (const r of [refused, missing]) expect(JSON.stringify(r)).not.toContain(dir);
  });

  it('sends a url instead of a file, with no file part', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 200, { ...RESULT, channels: [{ channel_index: 0, text: 'a' }, { channel_index: 1, text: 'b' }] }));
    const result = await transcribe(client, { url: 'https://example.com/a.mp3' }, { multichannel: true });
    expect(result.ok && result.value.channels).toHaveLength(2);
    expect(parts(server.received[0]!)).toEqual([
      { name: 'multichannel', value: 'true' },
      { name: 'url', value: 'https://example.com/a.mp3' },
    ]);
  });

  it('refuses broken rules before sending, a missing file as a file error, a wrong answer as protocol', async () => {
    const { client, server } = await setup((_req, res) => sendJson(res, 200, { words: [] }));
    const file = { file: { path: wav, filename: 'clip.raw', contentType: 'audio/wav' } };
    expect(await transcribe(client, file, { audio_format: 'mulaw' })).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'Raw mulaw audio needs its sample_rate (the service cannot tell it from the bytes).' } });
    expect(await transcribe(client, file, { keyterm: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toMatchObject({ ok: false, error: { message: 'At most 100 key terms (got 101).' } });
    expect(await transcribe(client, file, { keyterm: ['x'.repeat(51)] })).toMatchObject({ ok: false, error: { kind: 'invalid_request' } });
    expect(await transcribe(client, file, { channels: 9 })).toMatchObject({ ok: false, error: { message: 'channels must be 2 to 8 (got 9).' } });
    expect(await transcribe(client, file, { format: true })).toMatchObject({ ok: false, error: { message: 'Formatting (inverse text normalisation) needs a language.' } });
    const missing = await transcribe(client, { file: { path: join(dir, 'nope.wav'), filename: 'nope.wav', contentType: 'audio/wav' } });
    expect(missing).toMatchObject({ ok: false, error: { kind: 'file', message: expect.stringContaining('nope.wav (it does not exist)') } });
    expect(server.received).toHaveLength(0);
    const wrong = await transcribe(client, file);
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringMatching(/^The service's answer is not a speech-to-text result \(text: /) } });
  });
});

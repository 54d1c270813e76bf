import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getBuiltInVoice, listBuiltInVoices, restAnswerWaitMs, synthesize } from '../../../../main/api/tts';
import { useLocalClient } from './local-client';
import { sendJson } from './local-server';

const PCM = Buffer.from(Array.from({ length: 4800 }, (_, i) => (i * 37) % 256));

describe('api/tts REST', () => {
  const setup = useLocalClient({ apiKey: 'sk-tts-key-0001' });

  it('waits for a long speech answer longer than the connection waits (the answer comes only when all is made)', async () => {
    // The connection gives up after 150 ms (undici's timers tick about once a second); the speech answer comes after 2.5 s.
    const { client } = await setup((_req, res) => void setTimeout(() => sendJson(res, 200, { audio: PCM.toString('base64'), content_type: 'audio/pcm', duration: 0.1 }), 2_500), { headersTimeoutMs: 150 });
    const result = await synthesize(client, { text: 'Hi', language: 'en', output_format: { codec: 'pcm', sample_rate: 24000 } });
    expect(result.ok).toBe(true);
    // At least a minute, and an hour for 60,000 characters (the sandbox took about half an hour as MP3, loaded).
    expect(restAnswerWaitMs(2)).toBe(60_000);
    expect(restAnswerWaitMs(60_000)).toBe(3_600_000);
  });

  it('reads the spec JSON result (base64 audio, content_type, duration, audio_timestamps)', async () => {
    const timestamps = { graph_chars: ['H', 'i'], graph_times: [[0, 0.08], [0.08, 0.15]] };
    const { client, server } = await setup((_req, res) =>
      sendJson(res, 200, { audio: PCM.toString('base64'), content_type: 'audio/mpeg', duration: 1.84, audio_timestamps: timestamps, echo: 'sk-tts-key-0001' }, { 'x-trace-id': 'tr-9' }),
    );
    const result = await synthesize(client, { text: 'Hi', language: 'en', voice_id: 'eve', with_timestamps: true, output_format: { codec: 'mp3' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ form: 'json', contentType: 'audio/mpeg', codec: 'mp3', duration: 1.84, durationSource: 'service', timestamps, traceId: 'tr-9' });
    expect(result.value.audio.equals(PCM)).toBe(true);
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/v1/tts' });
    expect(JSON.parse(server.received[0]!.body)).toEqual({ text: 'Hi', language: 'en', voice_id: 'eve', with_timestamps: true, output_format: { codec: 'mp3' } });
    expect(JSON.stringify({ ...result, value: { ...result.value, audio: null } })).not.toContain('sk-tts-key-0001');
  });

  it('reads raw audio bytes when the Content-Type is audio/*, estimating the duration from the format', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(PCM);
    });
    const result = await synthesize(client, { text: 'Hi', language: 'en', output_format: { codec: 'pcm', sample_rate: 24000 } });
    expect(result.ok && result.value).toMatchObject({ form: 'raw', contentType: 'audio/pcm', codec: 'pcm', duration: 0.1, durationSource: 'estimate', timestamps: null });
    expect(result.ok && result.value.audio.equals(PCM)).toBe(true);
  });

  it('an MP3 body without a codec asked for is mp3 at the default bit rate', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      res.end(Buffer.alloc(16000));
    });
    const result = await synthesize(client, { text: 'Hi', language: 'en' });
    expect(result.ok && result.value).toMatchObject({ form: 'raw', codec: 'mp3', duration: 1 });
  });

  it('refuses an answer that is neither audio nor the result, a JSON without audio, text over 60,000, an answer over the cap', async () => {
    const { client, server } = await setup((req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html>proxy login</html>');
      }
      if (n === 1) return sendJson(res, 200, { content_type: 'audio/mpeg' });
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.end(Buffer.alloc(5000));
    });
    const html = await synthesize(client, { text: 'Hi', language: 'en' });
    expect(html).toMatchObject({ ok: false, error: { kind: 'protocol', message: 'The service answered the speech request with text/html, neither audio nor the JSON result: <html>proxy login</html>' } });
    const noAudio = await synthesize(client, { text: 'Hi', language: 'en' });
    expect(noAudio).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringMatching(/^The service's answer is not a text-to-speech result \(audio: /) } });
    const long = await synthesize(client, { text: 'a'.repeat(60_001), language: 'en' });
    expect(long).toMatchObject({ ok: false, error: { kind: 'invalid_request', message: 'The text is 60,001 characters; the service takes at most 60,000. Shorten it or split it into several requests.' } });
    expect(server.received).toHaveLength(2);
    const big = await synthesize(client, { text: 'Hi', language: 'en' }, { maxBytes: 1024 });
    expect(big).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringMatching(/^The speech answer is larger than 1 KiB/) } });
  });

  it('gives the service error with its status', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 404, { code: 'Some requested entity was not found', error: "Unknown voice 'bob'" }));
    const result = await synthesize(client, { text: 'Hi', language: 'en', voice_id: 'bob' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'http', status: 404, message: expect.stringContaining("Unknown voice 'bob'") } });
  });

  it('lists and gets built-in voices, checking their shape', async () => {
    const { client, server } = await setup((req, res, n) => {
      if (n === 0) return sendJson(res, 200, { voices: [{ voice_id: 'eve', name: 'Eve', language: 'multilingual' }] });
      if (n === 1) return sendJson(res, 200, { voice_id: 'eve', name: 'Eve', language: 'multilingual' });
      sendJson(res, 200, { voices: 'none' });
    });
    expect(await listBuiltInVoices(client)).toMatchObject({ ok: true, value: { voices: [{ voice_id: 'eve' }] } });
    expect(await getBuiltInVoice(client, 'EVE')).toMatchObject({ ok: true, value: { name: 'Eve' } });
    expect(server.received[1]!.url).toBe('/v1/tts/voices/EVE');
    expect(await listBuiltInVoices(client)).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringMatching(/^The service's answer is not a list of voices \(voices: /) } });
  });

  it('undoes a Content-Encoding a proxy added, on JSON and on raw audio; an unknown one is a protocol error', async () => {
    const { client } = await setup((_req, res, n) => {
      if (n === 0) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void res.end(gzipSync(JSON.stringify({ audio: PCM.toString('base64'), content_type: 'audio/pcm', duration: 0.1 })));
      }
      res.writeHead(200, { 'content-type': 'audio/pcm', 'content-encoding': n === 1 ? 'gzip' : 'zstd' });
      res.end(n === 1 ? gzipSync(PCM) : PCM);
    });
    const json = await synthesize(client, { text: 'Hi', language: 'en' });
    expect(json.ok && json.value.audio.equals(PCM)).toBe(true);
    const raw = await synthesize(client, { text: 'Hi', language: 'en', output_format: { codec: 'pcm', sample_rate: 24000 } });
    expect(raw.ok && raw.value.audio.equals(PCM)).toBe(true);
    const zstd = await synthesize(client, { text: 'Hi', language: 'en' });
    expect(zstd).toMatchObject({ ok: false, error: { kind: 'protocol', message: expect.stringContaining('"zstd"') } });
  });
});

/**
 * `POST /v1/stt` and WebSocket `/v1/stt` over a real sandbox: the REST answer for each container,
 * every refusal with its message, and the WebSocket's raw message sequences.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { encodeAlaw, encodeWav } from '../../../../../shared/audio';
import { KEY, startHarness, type Harness } from '../harness';
import { concat, interleave, oggPackets, pcmBytes, silence, speak } from '../stt/speech';
import { BOUNDARY, multipart, uploadFile, type FormPart } from './files-form';

let h: Harness;
let dir: string;
const low = speak('Hello there, this is the first speaker talking about the weather today.', 'en-us', 25);
const high = speak('And this is another voice, answering the question.', 'en-us+f3', 50);
const rate = low.rate;
const dialogue = concat(silence(300, rate), low.pcm, silence(1000, rate), high.pcm, silence(600, rate));
const round2 = (s: number) => Math.round(s * 100) / 100;

beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'stt-route-'));
});
afterAll(async () => {
  await h.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function wav(pcm: Int16Array, channels = 1): Uint8Array {
  return encodeWav({ samples: pcm, sampleRate: rate, channels });
}

function post(parts: FormPart[], headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${h.sandbox.url}/v1/stt`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: multipart(parts),
  });
}

const filePart = (bytes: Uint8Array): FormPart => ({ name: 'file', filename: 'audio', contentType: 'application/octet-stream', body: Buffer.from(bytes) });

async function expectRefusal(res: Response, status: number, message: string | RegExp): Promise<void> {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { code: string; error: string };
  if (typeof message === 'string') expect(body.error).toBe(message);
  else expect(body.error).toMatch(message);
}

describe('POST /v1/stt', () => {
  it('transcribes a WAV: words in the speech, two voices two speakers, the exact duration', async () => {
    const res = await post([{ name: 'diarize', body: 'true' }, { name: 'language', body: 'en' }, filePart(wav(dialogue))]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { text: string; language: string; duration: number; words: Array<{ text: string; start: number; end: number; confidence: number; speaker: number }> };
    expect(body.duration).toBe(round2(dialogue.length / rate));
    expect(body.language).toBe('en');
    expect(body.text).toBe(body.words.map((w) => w.text).join(' '));
    const aEnd = 0.3 + low.pcm.length / rate;
    const bStart = aEnd + 1;
    for (const w of body.words) {
      expect((w.start >= 0.3 && w.end <= aEnd + 0.05) || (w.start >= bStart && w.end <= bStart + high.pcm.length / rate + 0.05), `${w.text} ${w.start}`).toBe(true);
      expect(w.confidence).toBeGreaterThan(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    expect(new Set(body.words.filter((w) => w.end <= aEnd + 0.05).map((w) => w.speaker))).toEqual(new Set([0]));
    expect(new Set(body.words.filter((w) => w.start >= bStart).map((w) => w.speaker))).toEqual(new Set([1]));
  });

  it('decodes MP3, FLAC and Ogg Opus (made by ffmpeg) to about the same duration', async () => {
    const src = join(dir, 'dialogue.wav');
    writeFileSync(src, wav(dialogue));
    for (const [ext, args] of [['mp3', ['-b:a', '64k']], ['flac', []], ['ogg', ['-c:a', 'libopus']]] as const) {
      const out = join(dir, `dialogue.${ext}`);
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', src, ...args, out]);
      const res = await post([filePart(readFileSync(out))]);
      expect(res.status, ext).toBe(200);
      const body = (await res.json()) as { duration: number; words: unknown[] };
      expect(Math.abs(body.duration - dialogue.length / rate), ext).toBeLessThan(0.08);
      expect(body.words.length, ext).toBeGreaterThan(8);
    }
  });

  it('transcribes stereo channels separately with multichannel=true', async () => {
    const left = concat(low.pcm, silence(2500, rate));
    const right = concat(silence(1500, rate), high.pcm);
    const n = Math.min(left.length, right.length);
    const stereo = interleave(left.subarray(0, n), right.subarray(0, n));
    const res = await post([{ name: 'multichannel', body: 'true' }, filePart(wav(stereo, 2))]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { duration: number; channels: Array<{ channel_index: number; words: Array<{ start: number; end: number }>; duration: number }> };
    expect(body.channels.map((c) => c.channel_index)).toEqual([0, 1]);
    expect(body.channels.map((c) => c.duration)).toEqual([round2(n / rate), round2(n / rate)]);
    expect(body.channels[0].words.every((w) => w.end <= low.pcm.length / rate + 0.05)).toBe(true);
    expect(body.channels[1].words.every((w) => w.start >= 1.5)).toBe(true);
    expect(body.channels[1].words.length).toBeGreaterThan(3);
  });

  it('takes raw audio with audio_format and sample_rate', async () => {
    const res = await post([{ name: 'audio_format', body: 'pcm' }, { name: 'sample_rate', body: String(rate) }, filePart(pcmBytes(dialogue))]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { duration: number }).duration).toBe(round2(dialogue.length / rate));
    // Raw interleaved stereo, G.711 A-law, channels apart.
    const left = concat(low.pcm, silence(2500, rate));
    const right = concat(silence(1500, rate), high.pcm);
    const stereo = interleave(left, right);
    const raw = await post([
      { name: 'audio_format', body: 'alaw' },
      { name: 'sample_rate_hertz', body: String(rate) },
      { name: 'multichannel', body: 'true' },
      { name: 'channels', body: '2' },
      filePart(encodeAlaw(stereo)),
    ]);
    expect(raw.status).toBe(200);
    const body = (await raw.json()) as { channels: Array<{ channel_index: number; words: Array<{ start: number }>; duration: number }> };
    expect(body.channels.map((c) => [c.channel_index, c.duration])).toEqual([[0, round2(stereo.length / 2 / rate)], [1, round2(stereo.length / 2 / rate)]]);
    expect(body.channels[1].words.length).toBeGreaterThan(3);
    expect(body.channels[1].words.every((w) => w.start >= 1.5)).toBe(true);
  });

  it('refuses corrupt and unsupported audio, saying which formats work', async () => {
    await expectRefusal(await post([filePart(new Uint8Array(4000).fill(7))]), 400, /Send WAV, MP3, FLAC or Ogg Opus.*Raw audio without a header needs audio_format/);
    const broken = wav(dialogue).slice(0, 30);
    await expectRefusal(await post([filePart(broken)]), 400, /WAV|wav/);
    await expectRefusal(await post([filePart(Buffer.from('OggS\0\0\0\0\0\0\0\0\0\0vorbis padding padding'))]), 400, /^Ogg Vorbis audio cannot be decoded by the sandbox\. Send WAV, MP3, FLAC or Ogg Opus/);
    await expectRefusal(await post([{ name: 'audio_format', body: 'pcm' }, { name: 'sample_rate', body: '16000' }, filePart(new Uint8Array(3))]), 400, '3 bytes is not a whole number of pcm frames (2 bytes each for 1 channel).');
  });

  it('refuses a broken form with a message that says what to do', async () => {
    await expectRefusal(await post([filePart(wav(dialogue)), { name: 'language', body: 'en' }]), 400, 'The form field language comes after file; file must be the last part of the form.');
    await expectRefusal(await post([{ name: 'language', body: 'en' }]), 400, 'Send the audio as a file part (the last part of the form) or give its url.');
    await expectRefusal(await post([{ name: 'diarize', body: 'yes' }, { name: 'format', body: 'true' }, filePart(wav(dialogue))]), 400, 'format=true (inverse text normalisation) needs a language. diarize must be "true" or "false", not "yes".');
    const res = await fetch(`${h.sandbox.url}/v1/stt`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{}' });
    await expectRefusal(res, 415, /^Expected a multipart\/form-data body, got Content-Type "application\/json"\. POST \/v1\/stt takes multipart\/form-data/);
  });

  it('fetches url from loopback only', async () => {
    const bytes = wav(dialogue);
    const server: Server = createServer((_req, res) => res.end(Buffer.from(bytes)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a.wav`;
      const res = await post([{ name: 'url', body: url }]);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { duration: number }).duration).toBe(round2(dialogue.length / rate));
    } finally {
      server.close();
    }
    await expectRefusal(await post([{ name: 'url', body: 'https://example.com/a.wav' }]), 400, /^url example\.com is not fetched: the sandbox reads audio only from its own public file URLs and loopback hosts/);
    // The sandbox's own public file URL is read in-process; a revoked one says so.
    const file = await uploadFile(h, 'dialogue.wav', Buffer.from(bytes));
    const made = (await (await h.post(`/v1/files/${file.id}/public-url`, {})).json()) as { public_url: string };
    const own = await post([{ name: 'url', body: made.public_url }]);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { duration: number }).duration).toBe(round2(dialogue.length / rate));
    await fetch(`${h.sandbox.url}/v1/files/${file.id}/public-url`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}` } });
    await expectRefusal(await post([{ name: 'url', body: made.public_url }]), 400, 'url is a public file URL of this sandbox that does not exist, was revoked or has expired.');
  });
});

interface Connection {
  messages: Array<Record<string, any>>;
  closed: Promise<{ code: number; reason: string }>;
  ws: WebSocket;
}

/** Opens /v1/stt, resolving once transcript.created arrived; every message is kept. */
function connect(query: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${h.sandbox.url.replace('http', 'ws')}/v1/stt?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
    const messages: Array<Record<string, any>> = [];
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.once('close', (code, reason) => r({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)) as Record<string, any>);
      if (messages.length === 1) resolve({ messages, closed, ws });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(Object.assign(new Error('refused'), { status: res.statusCode, body: JSON.parse(body) as unknown })));
    });
    ws.once('error', reject);
  });
}

/** Sends audio in 100 ms frames then the given messages, and waits for the close. */
async function stream(query: string, audio: Uint8Array, frameBytes: number, tail: string[] = ['{"type":"audio.done"}']) {
  const c = await connect(query);
  for (let at = 0; at < audio.length; at += frameBytes) c.ws.send(audio.subarray(at, at + frameBytes));
  for (const t of tail) c.ws.send(t);
  const close = await c.closed;
  return { ...c, close };
}

describe('WebSocket /v1/stt', () => {
  it('refuses bad query parameters before the upgrade, with the native error body', async () => {
    const err = (await connect('sample_rate=11025&smart_turn_timeout=9').catch((e: unknown) => e)) as { status: number; body: { error: string } };
    expect(err.status).toBe(400);
    expect(err.body.error).toBe('sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000, not "11025". smart_turn_timeout only applies with smart_turn: set smart_turn (0.0 to 1.0) too.');
  });

  it('sends created, interim results every 500 ms of audio, finals, speech_final after endpointing, done, then closes 1000', async () => {
    const bytes = pcmBytes(dialogue);
    const { messages, close } = await stream(`sample_rate=${rate}&interim_results=true&endpointing=300`, bytes, (rate * 2) / 10);
    expect(messages[0]).toEqual({ type: 'transcript.created' });
    expect(messages.at(-1)).toMatchObject({ type: 'transcript.done', duration: round2(dialogue.length / rate) });
    expect(messages.slice(1, -1).every((m) => m.type === 'transcript.partial')).toBe(true);
    expect(close).toEqual({ code: 1000, reason: 'transcript done' });
    const partials = messages.slice(1, -1);
    for (const p of partials) expect(Object.keys(p).sort()).toEqual(['duration', 'is_final', 'speech_final', 'start', 'text', 'type', 'words']);
    const endMs = (p: Record<string, any>) => Math.round((p.start + p.duration) * 1000);
    let interims = 0;
    for (let i = 1; i < partials.length; i++) {
      if (partials[i].is_final || partials[i - 1].is_final) continue;
      interims++;
      expect(endMs(partials[i]) - endMs(partials[i - 1])).toBe(500);
    }
    expect(interims).toBeGreaterThan(3);
    const speechFinals = partials.filter((p) => p.speech_final);
    expect(speechFinals.length).toBeGreaterThanOrEqual(2);
    for (const f of speechFinals) {
      expect(f.is_final).toBe(true);
      const silenceMs = endMs(f) - Math.round(f.words.at(-1).end * 1000);
      expect(silenceMs).toBeGreaterThanOrEqual(300);
      expect(silenceMs).toBeLessThanOrEqual(360);
    }
  });

  it('demotes speech_final below the Smart Turn threshold', async () => {
    const bytes = pcmBytes(dialogue);
    const { messages } = await stream(`sample_rate=${rate}&smart_turn=1&endpointing=300`, bytes, 3200);
    const finals = messages.filter((m) => m.type === 'transcript.partial' && m.is_final);
    expect(finals.length).toBeGreaterThan(1);
    for (const f of finals) {
      expect(f.speech_final).toBe(false);
      expect(f.end_of_turn_confidence).toBeGreaterThanOrEqual(0);
      expect(f.end_of_turn_confidence).toBeLessThan(1);
    }
  });

  it('sends one transcript.done per channel with channel_index, and finalize per channel', async () => {
    const left = concat(low.pcm, silence(2500, rate));
    const right = concat(silence(1500, rate), high.pcm);
    const bytes = pcmBytes(interleave(left, right));
    const frames = Math.max(left.length, right.length);
    const { messages, close } = await stream(`sample_rate=${rate}&multichannel=true&channels=2&endpointing=5000`, bytes, 4410, ['{"type":"Finalize","channel":1}', '{"type":"audio.done"}']);
    expect(close.code).toBe(1000);
    const dones = messages.filter((m) => m.type === 'transcript.done');
    expect(dones.map((d) => [d.channel_index, d.duration])).toEqual([[0, round2(frames / rate)], [1, round2(frames / rate)]]);
    const finalized = messages.filter((m) => m.type === 'transcript.partial' && m.speech_final);
    expect(finalized.map((m) => m.channel_index)).toEqual([1]);
    expect(messages.filter((m) => m.type === 'transcript.partial').every((m) => m.channel_index === 0 || m.channel_index === 1)).toBe(true);
  });

  it('takes Opus packets, one per binary frame, with sample_rate ignored', async () => {
    const src = join(dir, 'opus-src.wav');
    const out = join(dir, 'stream.opus');
    writeFileSync(src, wav(dialogue));
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', src, '-ac', '1', '-ar', '48000', '-c:a', 'libopus', '-frame_duration', '20', out]);
    // Without the two header packets (OpusHead, OpusTags): raw packets, as the spec says.
    const packets = oggPackets(readFileSync(out)).slice(2);
    const c = await connect('encoding=opus&sample_rate=8000');
    for (const p of packets) c.ws.send(p);
    c.ws.send('{"type":"audio.done"}');
    expect((await c.closed).code).toBe(1000);
    const done = c.messages.at(-1)!;
    expect(done.type).toBe('transcript.done');
    // 20 ms a packet, decoded at 16 kHz (the encoder pads the last packet).
    expect(done.duration).toBe(round2(packets.length * 0.02));
    const words = c.messages.filter((m) => m.type !== 'transcript.created').flatMap((m) => m.words as unknown[]);
    expect(words.length).toBeGreaterThan(8);
  });

  it('answers a bad message with error and goes on; an undecodable Opus frame is error and close 1007', async () => {
    const ok = await stream('', new Uint8Array(0), 1, ['{"type":', '{"type":"audio.done"}']);
    expect(ok.messages.map((m) => m.type)).toEqual(['transcript.created', 'error', 'transcript.done']);
    expect(ok.close.code).toBe(1000);
    const bad = await stream('encoding=opus', new Uint8Array([0xff, 0xff, 0xff]), 3, []);
    expect(bad.messages.map((m) => m.type)).toEqual(['transcript.created', 'error']);
    expect(bad.messages[1].message).toMatch(/^Audio frame 1 is not an Opus packet/);
    expect(bad.close).toEqual({ code: 1007, reason: 'invalid audio frame' });
  });
});

/**
 * POST /v1/tts and the voice list against a running sandbox, with raw fetch: the audio in each
 * codec decodes back (ffprobe, mpg123) to what the response states, it is speech (energy over its
 * length, a voice's pitch), tags and speed are audible in its timing, and every rule has its message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRaw, decodeWav } from '../../../main/sandbox/audio/decode';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { medianPitch } from '../../../main/sandbox/tts/pitch';

const KEY = 'sk-tts-test-1';
let sb: SandboxServer;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ keys: [KEY] });
  dir = mkdtempSync(join(tmpdir(), 'tts-rest-'));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

interface TtsJson {
  audio: string;
  content_type: string;
  duration: number;
  audio_timestamps?: { graph_chars: string[]; graph_times: Array<[number, number]> };
}

async function tts(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await fetch(`${sb.url}/v1/tts`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

async function speak(body: Record<string, unknown>): Promise<TtsJson> {
  const { status, json } = await tts({ language: 'en', ...body });
  if (status !== 200) throw new Error(`${status}: ${JSON.stringify(json)}`);
  return json as TtsJson;
}

function pcmOf(r: TtsJson): { samples: Float32Array; rate: number } {
  const decoded = decodeWav(Buffer.from(r.audio, 'base64'));
  if (!decoded.ok) throw new Error(decoded.error.message);
  return { samples: decoded.audio.channels[0], rate: decoded.audio.sampleRate };
}

/** Share of 100 ms windows over the stated duration that carry sound (RMS above -40 dBFS). */
function voicedShare(samples: Float32Array, rate: number): number {
  const w = Math.round(rate / 10);
  let loud = 0;
  let windows = 0;
  for (let i = 0; i + w <= samples.length; i += w, windows++) {
    let s = 0;
    for (let k = i; k < i + w; k++) s += samples[k] * samples[k];
    if (Math.sqrt(s / w) > 0.01) loud++;
  }
  return loud / windows;
}

function rms(x: Float32Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return Math.sqrt(s / x.length);
}

function ffprobe(bytes: Buffer, name: string): Record<string, string> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels:format=duration', '-of', 'default=noprint_wrappers=1', path]).toString();
  return Object.fromEntries(out.trim().split('\n').map((l) => l.split('=') as [string, string]));
}

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

describe('POST /v1/tts', () => {
  it('answers MP3 by default whose decoded length is the stated duration (±50 ms)', async () => {
    const r = await speak({ text: SENTENCE });
    expect(r.content_type).toBe('audio/mpeg');
    expect(r.audio_timestamps).toBeUndefined();
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(Buffer.from(r.audio, 'base64'));
    decoder.free();
    expect(decoded.sampleRate).toBe(24000);
    expect(Math.abs(decoded.samplesDecoded / 24000 - r.duration)).toBeLessThanOrEqual(0.05);
    expect(r.duration).toBeGreaterThan(1.5);
    expect(voicedShare(decoded.channelData[0], 24000)).toBeGreaterThan(0.6);
  });

  it('writes WAV that ffprobe reads at every spec rate, with the stated duration', async () => {
    for (const rate of [8000, 16000, 22050, 24000, 44100, 48000]) {
      const r = await speak({ text: 'Hello there.', output_format: { codec: 'wav', sample_rate: rate } });
      expect(r.content_type).toBe('audio/wav');
      const probe = ffprobe(Buffer.from(r.audio, 'base64'), `out-${rate}.wav`);
      expect(probe).toMatchObject({ codec_name: 'pcm_s16le', sample_rate: String(rate), channels: '1' });
      expect(Math.abs(Number(probe.duration) - r.duration)).toBeLessThan(0.002);
      const { samples } = pcmOf(r);
      expect(rms(samples)).toBeGreaterThan(0.02);
    }
  });

  it('answers pcm, mulaw (and its alias ulaw) and alaw with their Content-Types and lengths', async () => {
    for (const [codec, type, encoding, bytesPer] of [
      ['pcm', 'audio/pcm', 'pcm', 2],
      ['mulaw', 'audio/basic', 'mulaw', 1],
      ['ulaw', 'audio/basic', 'mulaw', 1],
      ['alaw', 'audio/alaw', 'alaw', 1],
    ] as const) {
      const r = await speak({ text: 'Good morning.', output_format: { codec, sample_rate: 8000 } });
      expect(r.content_type).toBe(type);
      const bytes = Buffer.from(r.audio, 'base64');
      expect(bytes.length / bytesPer / 8000).toBeCloseTo(r.duration, 2);
      const decoded = decodeRaw(bytes, { encoding, sampleRate: 8000 });
      if (!decoded.ok) throw new Error(decoded.error.message);
      expect(voicedShare(decoded.audio.channels[0], 8000)).toBeGreaterThan(0.5);
    }
  });

  it('gives each built-in voice its own pitch', async () => {
    const pitches: Record<string, number> = {};
    for (const voice of ['eve', 'ara', 'rex', 'sal', 'leo']) {
      const { samples, rate } = pcmOf(await speak({ text: SENTENCE, voice_id: voice.toUpperCase(), output_format: { codec: 'wav', sample_rate: 16000 } }));
      pitches[voice] = medianPitch(samples, rate) ?? 0;
    }
    // Female timbres high, rex low, the others between; no two alike.
    expect(pitches.eve).toBeGreaterThan(180);
    expect(pitches.ara).toBeGreaterThan(pitches.eve);
    expect(pitches.rex).toBeLessThan(100);
    const sorted = Object.values(pitches).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1], JSON.stringify(pitches)).toBeGreaterThan(8);
  });

  it('times every spoken character, monotonic and within the audio; tags are heard in the timing', async () => {
    const text = 'One two [long-pause] <slow>three four</slow> five.';
    const r = await speak({ text, with_timestamps: true, output_format: { codec: 'wav', sample_rate: 16000 } });
    const ts = r.audio_timestamps;
    if (!ts) throw new Error('no audio_timestamps');
    expect(ts.graph_chars.join('')).toBe('One two  three four five.');
    expect(ts.graph_times).toHaveLength(ts.graph_chars.length);
    let last = 0;
    for (const [start, end] of ts.graph_times) {
      expect(start).toBeGreaterThanOrEqual(last);
      expect(end).toBeGreaterThanOrEqual(start);
      last = end;
    }
    expect(last).toBeLessThanOrEqual(r.duration);
    // The long pause: 1.5 s with no character between "two" and "three".
    const o = ts.graph_chars.indexOf('o', 5);
    const t = ts.graph_chars.indexOf('t', 8);
    expect(ts.graph_times[t][0] - ts.graph_times[o][1]).toBeGreaterThan(1.4);
    const { samples, rate } = pcmOf(r);
    const gap = samples.subarray(Math.round((ts.graph_times[o][1] + 0.2) * rate), Math.round((ts.graph_times[t][0] - 0.2) * rate));
    expect(rms(gap)).toBeLessThan(0.005);
    // <slow>: "three four" takes longer per character than "One two".
    const rateOf = (from: number, to: number) => (ts.graph_times[to][1] - ts.graph_times[from][0]) / (to - from + 1);
    expect(rateOf(9, 18)).toBeGreaterThan(rateOf(0, 6) * 1.2);
  });

  it('puts a clause comma in the pause eSpeak makes for it', async () => {
    const r = await speak({ text: 'Well, the morning was bright and clear, and then it rained.', with_timestamps: true, output_format: { codec: 'wav', sample_rate: 16000 } });
    const ts = r.audio_timestamps;
    if (!ts) throw new Error('no audio_timestamps');
    const { samples, rate } = pcmOf(r);
    const at = (i: number) => samples.subarray(Math.round(ts.graph_times[i][0] * rate), Math.round(ts.graph_times[i][1] * rate));
    const comma = ts.graph_chars.indexOf(',');
    expect(ts.graph_times[comma][1] - ts.graph_times[comma][0]).toBeGreaterThan(0.05);
    expect(rms(at(comma))).toBeLessThan(rms(samples) / 4);
  });

  it('makes inline tags heard: [laugh] is voiced sound, [breath] soft noise', async () => {
    const plain = await speak({ text: 'Yes. Indeed.', output_format: { codec: 'pcm', sample_rate: 8000 } });
    for (const tag of ['[laugh]', '[breath]']) {
      const tagged = await speak({ text: `Yes. ${tag} Indeed.`, output_format: { codec: 'pcm', sample_rate: 8000 }, with_timestamps: true });
      expect(tagged.duration - plain.duration, tag).toBeGreaterThan(0.25);
      const d = decodeRaw(Buffer.from(tagged.audio, 'base64'), { encoding: 'pcm', sampleRate: 8000 });
      if (!d.ok) throw new Error('decode');
      // Between "Yes. " and "Indeed." there is sound, not silence.
      const times = tagged.audio_timestamps?.graph_times ?? [];
      const gap = d.audio.channels[0].subarray(Math.round(times[4][1] * 8000), Math.round(times[6][0] * 8000));
      expect(rms(gap), tag).toBeGreaterThan(0.005);
    }
  });

  it('applies speed, loud and soft audibly', async () => {
    const slow = await speak({ text: SENTENCE, speed: 0.7, output_format: { codec: 'pcm', sample_rate: 8000 } });
    const fast = await speak({ text: SENTENCE, speed: 1.5, output_format: { codec: 'pcm', sample_rate: 8000 } });
    expect(slow.duration / fast.duration).toBeGreaterThan(1.6);
    const level = async (text: string) => {
      const r = await speak({ text, output_format: { codec: 'pcm', sample_rate: 8000 } });
      const d = decodeRaw(Buffer.from(r.audio, 'base64'), { encoding: 'pcm', sampleRate: 8000 });
      if (!d.ok) throw new Error('decode');
      return rms(d.audio.channels[0]);
    };
    expect(await level('<loud>Hello there friend.</loud>')).toBeGreaterThan((await level('<soft>Hello there friend.</soft>')) * 2);
  });

  it('refuses each broken rule with its message', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ text: 'hi' }, 400, 'language is required'],
      [{ language: 'en' }, 422, 'text is required'],
      [{ text: '   ', language: 'en' }, 400, 'text must not be empty'],
      [{ text: 'x'.repeat(60_001), language: 'en' }, 400, 'text is 60,001 characters; the limit is 60,000'],
      [{ text: 'hi', language: 'en', voice_id: 'bob' }, 404, 'Voice bob does not exist'],
      [{ text: 'hi', language: 'en', voice_id: 'not a voice!' }, 400, 'is not a voice id'],
      [{ text: 'hi', language: 'xx-notreal-zz' }, 400, 'is not supported'],
      [{ text: 'hi', language: 'english!' }, 400, 'is not a BCP-47 code'],
      [{ text: 'hi', language: 'en', speed: 1.6 }, 400, 'speed must be between 0.7 and 1.5; got 1.6'],
      [{ text: 'hi', language: 'en', speed: 'fast' }, 422, 'speed must be a number'],
      [{ text: 'hi', language: 'en', output_format: { codec: 'ogg' } }, 422, 'output_format.codec must be one of mp3, wav, pcm, mulaw, ulaw, alaw; got "ogg"'],
      [{ text: 'hi', language: 'en', output_format: { sample_rate: 11025 } }, 400, 'output_format.sample_rate must be one of 8000, 16000, 22050, 24000, 44100, 48000; got 11025'],
      [{ text: 'hi', language: 'en', output_format: { bit_rate: 100000 } }, 400, 'output_format.bit_rate must be one of 32000, 64000, 96000, 128000, 192000; got 100000'],
      [{ text: 'hi', language: 'en', output_format: 'mp3' }, 422, 'output_format must be an object'],
      [{ text: 'hi', language: 'en', output_format: { codec: 'mp3', quality: 1 } }, 400, 'Unknown field output_format.quality'],
      [{ text: 'hi', language: 'en', optimize_streaming_latency: 3 }, 400, 'optimize_streaming_latency must be 0 (best quality) or 1 (smaller first chunk); got 3'],
      [{ text: 'hi', language: 'en', with_timestamps: 'yes' }, 422, 'with_timestamps must be true or false'],
      [{ text: 'hi', language: 'en', text_normalization: 1 }, 422, 'text_normalization must be true or false'],
      [{ text: 'hi', language: 'en', voice: 'eve' }, 400, 'Unknown field voice'],
    ];
    for (const [body, status, message] of cases) {
      const r = await tts(body);
      expect({ body, status: r.status }).toEqual({ body, status });
      expect(r.json.error, JSON.stringify(body).slice(0, 80)).toContain(message);
    }
  });

  it('accepts the spec languages, case-insensitively, and auto by script', async () => {
    for (const language of ['PT-br', 'ar-EG', 'zh', 'auto']) {
      const { status } = await tts({ text: language === 'auto' ? 'Привет' : 'Olá', language, output_format: { codec: 'pcm', sample_rate: 8000 } });
      expect(status, language).toBe(200);
    }
  });
});

describe('GET /v1/tts/voices', () => {
  it('lists the built-in voices and finds one case-insensitively', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const list = (await (await fetch(`${sb.url}/v1/tts/voices`, { headers: auth })).json()) as { voices: Array<{ voice_id: string }> };
    expect(list.voices.map((v) => v.voice_id).sort()).toEqual(['ara', 'eve', 'leo', 'rex', 'sal']);
    const one = await fetch(`${sb.url}/v1/tts/voices/EVE`, { headers: auth });
    expect(await one.json()).toEqual({ voice_id: 'eve', name: 'Eve', language: 'multilingual' });
    const missing = await fetch(`${sb.url}/v1/tts/voices/nobody`, { headers: auth });
    expect(missing.status).toBe(404);
  });
});

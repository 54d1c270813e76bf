import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_SAMPLE_RATES } from '../../../../shared/audio/errors';
import { encodeWav, parseWav, wavHeader } from '../../../../shared/audio/wav';

const dir = mkdtempSync(join(tmpdir(), 'wav-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A chirp with a different phase per channel: every sample value differs, so a swap or shift shows. */
function signal(sampleRate: number, channels: number, seconds: number): Int16Array {
  const frames = Math.round(sampleRate * seconds);
  const out = new Int16Array(frames * channels);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      const t = i / sampleRate;
      out[i * channels + c] = Math.round(20000 * Math.sin(2 * Math.PI * (300 + 400 * t) * t + c));
    }
  }
  return out;
}

function ffprobe(file: string): { codec_name: string; sample_rate: string; channels: number; duration: string; bits_per_sample: number } {
  const json = execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file], { encoding: 'utf8' });
  return JSON.parse(json).streams[0];
}

/** ffmpeg re-encodes a WAV we wrote into another WAV codec. */
function ffmpegConvert(input: string, codec: string, name: string): Uint8Array {
  const out = join(dir, name);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', input, '-c:a', codec, out]);
  return readFileSync(out);
}

/** What ffmpeg itself decodes a file to, as PCM16. */
function ffmpegDecode(file: string): Int16Array {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 's16le', '-c:a', 'pcm_s16le', '-'], { maxBuffer: 64 << 20 });
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

describe('wav', () => {
  describe('encodeWav()', () => {
    it.each(SERVICE_SAMPLE_RATES.flatMap((rate) => [[rate, 1], [rate, 2]]))('writes a header ffprobe accepts at %i Hz, %i channel(s)', (rate, channels) => {
      const samples = signal(rate, channels, 0.25);
      const file = join(dir, `out-${rate}-${channels}.wav`);
      writeFileSync(file, encodeWav({ sampleRate: rate, channels, samples }));
      const stream = ffprobe(file);
      expect({ codec: stream.codec_name, rate: Number(stream.sample_rate), channels: stream.channels, bits: stream.bits_per_sample }).toEqual({
        codec: 'pcm_s16le',
        rate,
        channels,
        bits: 16,
      });
      expect(Number(stream.duration)).toBeCloseTo(0.25, 3);
      expect(ffmpegDecode(file)).toEqual(samples);
    });

    it('refuses samples that are not whole frames', () => {
      expect(() => encodeWav({ sampleRate: 16000, channels: 2, samples: new Int16Array(3) })).toThrow(/whole/);
    });

    it('wavHeader() matches the header encodeWav() writes', () => {
      const samples = signal(8000, 1, 0.1);
      expect(wavHeader({ sampleRate: 8000, channels: 1, dataBytes: samples.length * 2 })).toEqual(
        encodeWav({ sampleRate: 8000, channels: 1, samples }).subarray(0, 44),
      );
    });
  });

  describe('parseWav()', () => {
    it.each(SERVICE_SAMPLE_RATES.map((r) => [r]))('reads back what encodeWav() wrote at %i Hz', (rate) => {
      const samples = signal(rate, 2, 0.1);
      const parsed = parseWav(encodeWav({ sampleRate: rate, channels: 2, samples }));
      expect(parsed).toEqual({
        ok: true,
        value: { sampleRate: rate, channels: 2, samples, encoding: 'pcm16', frames: samples.length / 2, durationMs: 100, truncated: false },
      });
    });

    const source = join(dir, 'source.wav');
    const sourceSamples = signal(16000, 2, 0.2);
    writeFileSync(source, encodeWav({ sampleRate: 16000, channels: 2, samples: sourceSamples }));

    it.each([
      ['pcm_s24le', 'pcm24'],
      ['pcm_f32le', 'float32'],
      ['pcm_mulaw', 'mulaw'],
      ['pcm_alaw', 'alaw'],
    ])('reads a %s WAV written by ffmpeg to the samples ffmpeg decodes from it', (codec, encoding) => {
      const file = join(dir, `${codec}.wav`);
      writeFileSync(file, ffmpegConvert(source, codec, `${codec}.wav`));
      const parsed = parseWav(readFileSync(file));
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(parsed.value.encoding).toBe(encoding);
      expect(parsed.value.sampleRate).toBe(16000);
      expect(parsed.value.channels).toBe(2);
      expect(parsed.value.samples).toEqual(ffmpegDecode(file));
      // Lossless codecs give back the very samples we started from.
      if (encoding === 'pcm24' || encoding === 'float32') expect(parsed.value.samples).toEqual(sourceSamples);
    });

    it('reads WAVE_FORMAT_EXTENSIBLE (ffmpeg writes it for 24-bit 3-channel audio)', () => {
      const three = join(dir, 'three.wav');
      writeFileSync(three, encodeWav({ sampleRate: 24000, channels: 3, samples: signal(24000, 3, 0.1) }));
      const bytes = ffmpegConvert(three, 'pcm_s24le', 'three-24.wav');
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(20, true)).toBe(0xfffe);
      const parsed = parseWav(bytes);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect({ encoding: parsed.value.encoding, channels: parsed.value.channels, frames: parsed.value.frames }).toEqual({
        encoding: 'pcm24',
        channels: 3,
        frames: 2400,
      });
      expect(parsed.value.samples).toEqual(signal(24000, 3, 0.1));
    });

    it('skips chunks before the data (LIST metadata) and keeps a truncated file\'s samples, saying so', () => {
      const bytes = ffmpegConvert(source, 'pcm_s16le', 'meta.wav'); // ffmpeg adds a LIST chunk
      const cut = bytes.subarray(0, bytes.length - 100);
      const parsed = parseWav(cut);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(parsed.value.truncated).toBe(true);
      expect(parsed.value.frames).toBe(sourceSamples.length / 2 - 25);
      expect(parsed.value.samples).toEqual(sourceSamples.subarray(0, sourceSamples.length - 50));
    });

    it('reads to the end of the file when the data size was never filled in (a streamed WAV)', () => {
      const samples = signal(8000, 1, 0.05);
      const bytes = encodeWav({ sampleRate: 8000, channels: 1, samples });
      new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
      const parsed = parseWav(bytes);
      expect(parsed.ok && parsed.value.samples).toEqual(samples);
    });

    it.each([
      ['pcm_u8', 'unsupported', /8-bit PCM.*Convert it to 16-bit PCM/],
      ['adpcm_ima_wav', 'unsupported', /format 0x0011 \(IMA ADPCM\)/],
      ['pcm_f64le', 'unsupported', /64-bit float/],
    ])('refuses a %s WAV with a clear message', (codec, code, message) => {
      const parsed = parseWav(ffmpegConvert(source, codec, `bad-${codec}.wav`));
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error.code).toBe(code);
      expect(parsed.error.message).toMatch(message);
    });

    it.each([
      ['an empty file', new Uint8Array(0), /shorter than a RIFF header/],
      ['an MP3', Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), /does not start with RIFF/],
      ['a header with no fmt chunk', riff([chunk('data', new Uint8Array(4))]), /no "fmt " chunk/],
      ['a header with no data chunk', riff([chunk('fmt ', fmtBody(1, 1, 8000, 16))]), /no "data" chunk/],
      ['a cut fmt chunk', riff([chunk('fmt ', new Uint8Array(8))]), /"fmt " chunk is cut short/],
      ['0 channels', riff([chunk('fmt ', fmtBody(1, 0, 8000, 16)), chunk('data', new Uint8Array(4))]), /0 channels/],
    ])('refuses %s as corrupt', (_name, bytes, message) => {
      const parsed = parseWav(bytes);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error.code).toBe('corrupt');
      expect(parsed.error.message).toMatch(message);
    });
  });
});

function chunk(id: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + body.length);
  for (let i = 0; i < 4; i++) out[i] = id.charCodeAt(i);
  new DataView(out.buffer).setUint32(4, body.length, true);
  out.set(body, 8);
  return out;
}
function riff(chunks: Uint8Array[]): Uint8Array {
  const body = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(12 + body);
  out.set([0x52, 0x49, 0x46, 0x46], 0);
  new DataView(out.buffer).setUint32(4, 4 + body, true);
  out.set([0x57, 0x41, 0x56, 0x45], 8);
  let at = 12;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
function fmtBody(tag: number, channels: number, rate: number, bits: number): Uint8Array {
  const out = new Uint8Array(16);
  const v = new DataView(out.buffer);
  v.setUint16(0, tag, true);
  v.setUint16(2, channels, true);
  v.setUint32(4, rate, true);
  v.setUint32(8, (rate * channels * bits) / 8, true);
  v.setUint16(12, (channels * bits) / 8, true);
  v.setUint16(14, bits, true);
  return out;
}

/**
 * The sandbox's audio decoders against media made by espeak-ng, ffmpeg and sox here: every
 * container decodes to the length and content ffmpeg reads from it; bad input is an error value.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioDecoder, decodeRaw, mixToMono, sniffAudio } from '../../../../../main/sandbox/audio/decode';

let dir: string;
const decoder = new AudioDecoder();
const file = (name: string) => readFileSync(join(dir, name));
const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args], { cwd: dir });

/** What ffmpeg decodes from a file: mono float samples at the file's rate. */
function ffmpegSamples(name: string, rate: number): Float32Array {
  const raw = execFileSync('ffmpeg', ['-loglevel', 'error', '-i', join(dir, name), '-ac', '1', '-ar', String(rate), '-f', 'f32le', '-'], { maxBuffer: 64 << 20 });
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
}

function rms(x: Float32Array): number {
  let s = 0;
  for (const v of x) s += v * v;
  return Math.sqrt(s / x.length);
}

/** Normalised correlation of two signals over their common length (1 = identical shape). */
function correlation(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / Math.sqrt(aa * bb);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-decode-'));
  execFileSync('espeak-ng', ['-w', join(dir, 'speech.wav'), 'The quick brown fox jumps over the lazy dog, twice.']);
  ffmpeg('-i', 'speech.wav', '-ar', '44100', '-ac', '2', 'stereo.mp3');
  ffmpeg('-i', 'speech.wav', 'speech.flac');
  ffmpeg('-i', 'speech.wav', '-c:a', 'libopus', 'speech.ogg');
  ffmpeg('-i', 'speech.wav', '-c:a', 'libvorbis', 'vorbis.ogg');
  ffmpeg('-i', 'speech.wav', '-c:a', 'aac', 'speech.m4a');
  ffmpeg('-i', 'speech.wav', '-ar', '8000', '-c:a', 'pcm_mulaw', 'mulaw.wav');
  ffmpeg('-i', 'speech.wav', '-ar', '48000', '-c:a', 'pcm_f32le', 'float.wav');
  ffmpeg('-i', 'speech.wav', '-ar', '8000', '-f', 'mulaw', 'speech.ulaw');
  ffmpeg('-i', 'speech.wav', '-ar', '8000', '-f', 'alaw', 'speech.alaw');
  ffmpeg('-i', 'speech.wav', '-ar', '16000', '-ac', '2', '-f', 's16le', 'stereo.pcm');
  execFileSync('sox', [join(dir, 'speech.wav'), '-b', '24', join(dir, 'sox24.wav')]);
}, 60_000);

afterAll(() => {
  decoder.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('sandbox audio decoders', () => {
  it('sniffs containers by their magic bytes', () => {
    expect(sniffAudio(file('speech.wav'))).toBe('wav');
    expect(sniffAudio(file('stereo.mp3'))).toBe('mp3');
    expect(sniffAudio(file('speech.flac'))).toBe('flac');
    expect(sniffAudio(file('speech.ogg'))).toBe('ogg-opus');
    expect(sniffAudio(file('vorbis.ogg'))).toBe('ogg-vorbis');
    expect(sniffAudio(file('speech.m4a'))).toBe('mp4');
    expect(sniffAudio(Buffer.from('just some text, not audio'))).toBeNull();
  });

  it.each([
    ['speech.wav', 'wav', 1, 0],
    ['sox24.wav', 'wav', 1, 0],
    ['float.wav', 'wav', 1, 0],
    ['mulaw.wav', 'wav', 1, 0],
    ['stereo.mp3', 'mp3', 2, 0.05],
    ['speech.flac', 'flac', 1, 0],
    ['speech.ogg', 'ogg-opus', 1, 0.01],
  ])('%s decodes to the length and shape ffmpeg reads', async (name, format, channels, tolerance) => {
    const result = await decoder.decodeFile(file(name));
    if (!result.ok) throw new Error(result.error.message);
    const { audio } = result;
    expect(audio.format).toBe(format);
    expect(audio.channels).toHaveLength(channels);
    const reference = ffmpegSamples(name, audio.sampleRate);
    const ours = mixToMono(audio);
    expect(Math.abs(audio.duration - reference.length / audio.sampleRate)).toBeLessThanOrEqual(tolerance + 1e-9);
    expect(audio.duration).toBeCloseTo(ours.length / audio.sampleRate, 9);
    // Real speech came out, not silence, and it is the same speech ffmpeg hears.
    expect(rms(ours)).toBeGreaterThan(0.02);
    expect(correlation(ours, reference)).toBeGreaterThan(0.9);
  });

  it('decodes the same file again with the kept decoders, identically', async () => {
    const a = await decoder.decodeFile(file('stereo.mp3'));
    const b = await decoder.decodeFile(file('stereo.mp3'));
    if (!a.ok || !b.ok) throw new Error('decode failed');
    expect(b.audio.channels[0]).toEqual(a.audio.channels[0]);
  });

  it('decodes raw pcm, µ-law and A-law given their rate and channels', () => {
    for (const [name, encoding] of [['speech.ulaw', 'mulaw'], ['speech.alaw', 'alaw']] as const) {
      const result = decodeRaw(file(name), { encoding, sampleRate: 8000 });
      if (!result.ok) throw new Error(result.error.message);
      expect(result.audio.duration).toBeCloseTo(file(name).length / 8000, 9);
      expect(correlation(result.audio.channels[0], ffmpegSamples('speech.wav', 8000))).toBeGreaterThan(0.95);
    }
    const stereo = decodeRaw(file('stereo.pcm'), { encoding: 'pcm', sampleRate: 16000, channels: 2 });
    if (!stereo.ok) throw new Error(stereo.error.message);
    expect(stereo.audio.channels).toHaveLength(2);
    expect(stereo.audio.channels[1]).toEqual(stereo.audio.channels[0]);
    expect(correlation(stereo.audio.channels[0], ffmpegSamples('speech.wav', 16000))).toBeGreaterThan(0.99);
    expect(decodeRaw(new Uint8Array(3), { encoding: 'pcm', sampleRate: 16000 })).toEqual({
      ok: false,
      error: { code: 'corrupt_audio', message: '3 bytes is not a whole number of pcm frames (2 bytes each for 1 channel).' },
    });
  });

  it('answers unsupported and corrupt files with an error value that says what to do', async () => {
    const vorbis = await decoder.decodeFile(file('vorbis.ogg'));
    expect(vorbis).toMatchObject({ ok: false, error: { code: 'unsupported_audio', message: expect.stringContaining('Ogg Vorbis') } });
    expect(await decoder.decodeFile(file('speech.m4a'))).toMatchObject({ ok: false, error: { code: 'unsupported_audio', message: expect.stringContaining('ffmpeg -i input output.wav') } });
    expect(await decoder.decodeFile(Buffer.from('hello, this is plain text'))).toMatchObject({ ok: false, error: { code: 'unsupported_audio' } });
    expect(await decoder.decodeFile(new Uint8Array(0))).toMatchObject({ ok: false, error: { code: 'empty_audio' } });
    const noise = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) & 0xff);
    const mp3 = Buffer.concat([Buffer.from('ID3\x03\x00\x00\x00\x00\x00\x00', 'latin1'), noise]);
    expect(await decoder.decodeFile(mp3)).toMatchObject({ ok: false, error: { code: 'corrupt_audio', message: expect.stringContaining('MP3') } });
    const flac = Buffer.concat([file('speech.flac').subarray(0, 42), noise]);
    expect(await decoder.decodeFile(flac)).toMatchObject({ ok: false, error: { code: 'corrupt_audio' } });
    const ogg = Buffer.concat([file('speech.ogg').subarray(0, 80), noise]);
    expect(await decoder.decodeFile(ogg)).toMatchObject({ ok: false, error: { code: 'corrupt_audio' } });
    const wav = file('speech.wav').subarray(0, 30);
    expect(await decoder.decodeFile(wav)).toMatchObject({ ok: false, error: { code: 'corrupt_audio', message: expect.stringContaining('WAV') } });
    // Still good after all that.
    expect((await decoder.decodeFile(file('speech.flac'))).ok).toBe(true);
  });
});

/**
 * Reads a RIFF/WAVE file into float channels: PCM 8/16/24/32-bit, IEEE float 32/64, G.711 µ-law
 * and A-law, plain or WAVE_FORMAT_EXTENSIBLE. Chunks are walked by their sizes (odd sizes padded),
 * so LIST/fact/junk chunks anywhere are skipped. A `data` size past the end of the file (a
 * streamed WAV whose header was never patched, size 0xFFFFFFFF) reads what is there.
 *
 * This is the sandbox's own reader until shared/audio/wav.ts (the audio engineer's) lands; then
 * only the G.711 and float paths here need checking against it.
 */
import { alaw, mulaw } from './g711';
import type { AudioDecodeResult } from './decode';

const FORMAT_PCM = 1;
const FORMAT_FLOAT = 3;
const FORMAT_ALAW = 6;
const FORMAT_MULAW = 7;
const FORMAT_EXTENSIBLE = 0xfffe;

function fail(code: 'corrupt_audio' | 'unsupported_audio', message: string): AudioDecodeResult {
  return { ok: false, error: { code, message } };
}

/** Decodes a WAV file (the caller has seen `RIFF….WAVE`). */
export function decodeWav(bytes: Uint8Array): AudioDecodeResult {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bits: number; blockAlign: number } | null = null;
  let data: Uint8Array | null = null;
  while (offset + 8 <= bytes.length) {
    const id = String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) return fail('corrupt_audio', 'The WAV file\'s "fmt " chunk is cut short.');
      let format = view.getUint16(body, true);
      if (format === FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
      fmt = {
        format,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      data = bytes.subarray(body, Math.min(bytes.length, body + size));
      break;
    }
    offset = body + size + (size & 1);
  }
  if (!fmt) return fail('corrupt_audio', 'The WAV file has no "fmt " chunk before its audio, so its format is unknown.');
  if (!data) return fail('corrupt_audio', 'The WAV file has no "data" chunk: it holds no audio.');
  const { format, channels, sampleRate, bits } = fmt;
  if (channels < 1 || channels > 32) return fail('corrupt_audio', `The WAV header says ${channels} channels; expected 1 to 32.`);
  if (sampleRate < 1000 || sampleRate > 768_000) return fail('corrupt_audio', `The WAV header says a sample rate of ${sampleRate} Hz; expected 1,000 to 768,000.`);
  const bytesPer = Math.ceil(bits / 8);
  const frameBytes = bytesPer * channels;
  if (frameBytes === 0) return fail('corrupt_audio', `The WAV header says ${bits} bits per sample.`);
  const frames = Math.floor(data.length / frameBytes);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let read: (at: number) => number;
  if (format === FORMAT_PCM && bits === 16) read = (at) => dv.getInt16(at, true) / 32768;
  else if (format === FORMAT_PCM && bits === 8) read = (at) => (dv.getUint8(at) - 128) / 128;
  else if (format === FORMAT_PCM && bits === 24) read = (at) => ((dv.getUint8(at) | (dv.getUint8(at + 1) << 8) | (dv.getInt8(at + 2) << 16)) / 8388608);
  else if (format === FORMAT_PCM && bits === 32) read = (at) => dv.getInt32(at, true) / 2147483648;
  else if (format === FORMAT_FLOAT && bits === 32) read = (at) => dv.getFloat32(at, true);
  else if (format === FORMAT_FLOAT && bits === 64) read = (at) => dv.getFloat64(at, true);
  else if ((format === FORMAT_MULAW || format === FORMAT_ALAW) && bits === 8) {
    const pcm = (format === FORMAT_MULAW ? mulaw : alaw).decode(data.subarray(0, frames * frameBytes));
    read = (at) => pcm[at] / 32768;
  } else {
    return fail('unsupported_audio', `This WAV file's encoding (format ${format}, ${bits}-bit) is not supported; use PCM (8/16/24/32-bit), 32/64-bit float, µ-law or A-law.`);
  }
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) out[c][i] = read(i * frameBytes + c * bytesPer);
  }
  return { ok: true, audio: { format: 'wav', sampleRate, channels: out, duration: frames / sampleRate } };
}

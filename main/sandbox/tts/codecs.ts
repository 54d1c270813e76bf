/**
 * Output codecs of text-to-speech (wire-notes §3.1): mp3 (lamejs, with its bit rate), wav, pcm
 * (16-bit LE), mulaw (alias ulaw) and alaw (G.711), with their Content-Types. An encoder is made
 * per utterance and fed part by part (streaming sends each part's bytes as one `audio.delta`).
 * MP3 is encoded in the eSpeak worker (the service passes its streams): lamejs is slow JavaScript.
 *
 * MP3 bit rates the format cannot carry at a rate are adjusted, never the sample rate: lamejs would
 * otherwise resample (24/44.1/48 kHz at 32 kbps come out at 22.05 kHz). MPEG-2.5 (8 kHz) tops out at
 * 64 kbps, MPEG-2 (16-24 kHz) at 160; 24 kHz needs at least 40, 44.1/48 kHz at least 64.
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import { encodeAlaw, encodeMulaw } from '../../../shared/audio/g711';

export const TTS_CODECS = ['mp3', 'wav', 'pcm', 'mulaw', 'ulaw', 'alaw'] as const;
export type TtsCodecName = (typeof TTS_CODECS)[number];
export const TTS_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export const TTS_BIT_RATES = [32000, 64000, 96000, 128000, 192000] as const;

export const CONTENT_TYPES: Record<Exclude<TtsCodecName, 'ulaw'>, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  mulaw: 'audio/basic',
  alaw: 'audio/alaw',
};

export interface OutputFormat {
  codec: Exclude<TtsCodecName, 'ulaw'>;
  sampleRate: number;
  bitRate: number;
}

/** The bit rate lamejs can keep at `sampleRate` (see above), nearest to the asked one. */
export function effectiveMp3BitRate(sampleRate: number, bitRate: number): number {
  const kbps = bitRate / 1000;
  if (sampleRate <= 12000) return Math.min(kbps, 64) * 1000;
  if (sampleRate <= 24000) return Math.max(sampleRate === 24000 ? 40 : 8, Math.min(kbps, 160)) * 1000;
  return Math.max(64, kbps) * 1000;
}

export interface AudioEncoder {
  /** Bytes for these samples (mp3 may hold some back until later parts or `end`). */
  write(samples: Float32Array): Promise<Uint8Array>;
  /** The remaining bytes; call it once, also when the utterance is abandoned (it frees an MP3 stream). */
  end(): Promise<Uint8Array>;
}

/** Where MP3 is encoded: by default lamejs here; the service passes the worker's (espeak.ts). */
export type Mp3Streams = (sampleRate: number, kbps: number) => { write(samples: Int16Array): Promise<Uint8Array>; end(): Promise<Uint8Array> };

/** lamejs on this thread (tests; a fallback). */
export const localMp3: Mp3Streams = (sampleRate, kbps) => {
  const mp3 = new Mp3Encoder(1, sampleRate, kbps);
  // lamejs hands back views of its own buffer (Int8Array at run time, whatever its types say): copied as bytes.
  const bytes = (b: ArrayBufferView) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice();
  return { write: async (s) => bytes(mp3.encodeBuffer(s)), end: async () => bytes(mp3.flush()) };
};

function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]));
    out[i] = v < 0 ? Math.round(v * 32768) : Math.round(v * 32767);
  }
  return out;
}

/** A 44-byte PCM WAV header; `frames` unknown (streaming) writes the largest sizes, which readers take as "to the end". */
export function wavHeader(sampleRate: number, frames: number | null): Uint8Array {
  const header = new Uint8Array(44);
  const v = new DataView(header.buffer);
  const dataBytes = frames === null ? 0xffffffff - 36 : frames * 2;
  header.set([0x52, 0x49, 0x46, 0x46], 0);
  v.setUint32(4, 36 + dataBytes, true);
  header.set([0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20], 8);
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  header.set([0x64, 0x61, 0x74, 0x61], 36);
  v.setUint32(40, dataBytes, true);
  return header;
}

function pcmBytes(samples: Float32Array): Uint8Array {
  const ints = toInt16(samples);
  // Int16Array is host-endian; every platform Node runs on here is little-endian, checked once.
  return new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength);
}
if (new Uint8Array(new Int16Array([1]).buffer)[0] !== 1) throw new Error('The sandbox\'s PCM output assumes a little-endian host.');

/** An encoder for one utterance; `totalFrames` (known for REST) makes the WAV header exact. */
export function createEncoder(format: OutputFormat, totalFrames: number | null = null, mp3Streams: Mp3Streams = localMp3): AudioEncoder {
  switch (format.codec) {
    case 'mp3': {
      const mp3 = mp3Streams(format.sampleRate, effectiveMp3BitRate(format.sampleRate, format.bitRate) / 1000);
      return { write: (s) => mp3.write(toInt16(s)), end: () => mp3.end() };
    }
    case 'wav': {
      let first = true;
      return {
        async write(s) {
          const body = pcmBytes(s);
          if (!first) return body;
          first = false;
          const out = new Uint8Array(44 + body.length);
          out.set(wavHeader(format.sampleRate, totalFrames), 0);
          out.set(body, 44);
          return out;
        },
        end: async () => (first ? ((first = false), wavHeader(format.sampleRate, totalFrames ?? 0)) : new Uint8Array(0)),
      };
    }
    case 'pcm':
      return { write: async (s) => pcmBytes(s), end: async () => new Uint8Array(0) };
    case 'mulaw':
      return { write: async (s) => encodeMulaw(toInt16(s)), end: async () => new Uint8Array(0) };
    case 'alaw':
      return { write: async (s) => encodeAlaw(toInt16(s)), end: async () => new Uint8Array(0) };
  }
}

/** Seconds of audio in an MP3 stream: its frames x samples per frame / rate (what a decoder plays). */
export function mp3Duration(bytes: Uint8Array): number {
  let frames = 0;
  let spf = 1152;
  let rate = 0;
  const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
  const KBPS_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const KBPS_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
  for (let i = 0; i + 4 <= bytes.length; ) {
    if (bytes[i] !== 0xff || (bytes[i + 1] & 0xe0) !== 0xe0) {
      i++;
      continue;
    }
    const version = (bytes[i + 1] >> 3) & 3;
    const bitIndex = bytes[i + 2] >> 4;
    const rateIndex = (bytes[i + 2] >> 2) & 3;
    if (version === 1 || bitIndex === 0 || bitIndex === 15 || rateIndex === 3) {
      i++;
      continue;
    }
    rate = RATES[version][rateIndex];
    spf = version === 3 ? 1152 : 576;
    const kbps = (version === 3 ? KBPS_V1 : KBPS_V2)[bitIndex];
    const padding = (bytes[i + 2] >> 1) & 1;
    const length = Math.floor(((spf / 8) * kbps * 1000) / rate) + padding;
    frames++;
    i += length;
  }
  return rate === 0 ? 0 : (frames * spf) / rate;
}

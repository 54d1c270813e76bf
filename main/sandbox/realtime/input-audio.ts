/**
 * Audio in the session's formats (wire-notes §2.2): `audio/pcm` (16-bit little-endian mono at its
 * rate), `audio/pcmu` and `audio/pcma` (G.711 at 8 kHz, shared/audio). The input buffer holds the
 * decoded samples of `input_audio_buffer.append` until a commit or clear; a PCM append need not end
 * on a sample (the odd byte is carried to the next). `toMulaw8k` turns the model's audio into what
 * a SIP caller hears.
 */
import { decodeAlaw, decodeMulaw, encodeMulaw, pcm16FromBytes, Resampler } from '../../../shared/audio';
import { createHash } from 'node:crypto';
import type { AudioFormat } from './session-config';

/** Base64 as the wire sends it (whitespace tolerated); null when it is not base64. */
export function decodeBase64(text: string): Buffer | null {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  return Buffer.from(clean, 'base64');
}

/** Bytes of `format` -> samples at its rate. PCM must be whole samples here (the buffer carries odd bytes). */
export function decodeAudio(bytes: Uint8Array, format: AudioFormat): Int16Array {
  if (format.type === 'audio/pcmu') return decodeMulaw(bytes);
  if (format.type === 'audio/pcma') return decodeAlaw(bytes);
  return pcm16FromBytes(bytes);
}

/** Milliseconds and a seed of a whole clip given in one piece (a `conversation.item.create` input_audio). */
export function clipInfo(b64: string, format: AudioFormat): { ms: number; seed: string } | string {
  const bytes = decodeBase64(b64);
  if (!bytes) return 'The audio is not valid base64.';
  if (format.type === 'audio/pcm' && bytes.length % 2 !== 0) return `The audio has ${bytes.length} bytes: audio/pcm is 16-bit samples, so an even number of bytes.`;
  const samples = format.type === 'audio/pcm' ? bytes.length / 2 : bytes.length;
  return { ms: Math.round((samples / format.rate) * 1000), seed: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

export class InputAudioBuffer {
  private chunks: Array<{ samples: Int16Array; rate: number }> = [];
  private carry: number | null = null;
  private totalMs = 0;
  private readonly hash = () => createHash('sha256');
  private digest = this.hash();

  /** Appends bytes of `format`; returns the decoded samples (for a turn detector). */
  append(bytes: Uint8Array, format: AudioFormat): Int16Array {
    let data = bytes;
    if (format.type === 'audio/pcm') {
      if (this.carry !== null) {
        data = new Uint8Array(bytes.length + 1);
        data[0] = this.carry;
        data.set(bytes, 1);
        this.carry = null;
      }
      if (data.length % 2 === 1) {
        this.carry = data[data.length - 1];
        data = data.subarray(0, data.length - 1);
      }
    }
    const samples = decodeAudio(data, format);
    this.appendSamples(samples, format.rate);
    return samples;
  }

  appendSamples(samples: Int16Array, rate: number): void {
    if (samples.length === 0) return;
    this.chunks.push({ samples, rate });
    this.totalMs += (samples.length / rate) * 1000;
    this.digest.update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
  }

  get ms(): number {
    return Math.round(this.totalMs);
  }

  /** Takes the buffer's audio (its length and a seed of its samples) and empties it. */
  take(): { ms: number; seed: string } {
    const out = { ms: this.ms, seed: this.digest.digest('hex').slice(0, 16) };
    this.clear();
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.carry = null;
    this.totalMs = 0;
    this.digest = this.hash();
  }
}

/** Converts the model's audio (the session's output format) to µ-law 8 kHz for a SIP caller, as a stream. */
export class MulawConverter {
  private resampler: Resampler | null;
  constructor(private readonly format: AudioFormat) {
    this.resampler = format.type === 'audio/pcm' && format.rate !== 8000 ? new Resampler(format.rate, 8000) : null;
  }

  push(bytes: Uint8Array): Uint8Array {
    if (this.format.type === 'audio/pcmu') return bytes;
    const samples = decodeAudio(bytes, this.format);
    return encodeMulaw(this.resampler ? this.resampler.push(samples) : samples);
  }

  flush(): Uint8Array {
    return this.resampler ? encodeMulaw(this.resampler.flush()) : new Uint8Array(0);
  }
}

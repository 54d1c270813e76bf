/**
 * Audio in the session's formats (wire-notes §2.2): `audio/pcm` (16-bit little-endian mono at its
 * rate), `audio/pcmu` and `audio/pcma` (G.711 at 8 kHz, shared/audio): base64 checks, a whole
 * clip's length (`conversation.item.create` input_audio), and `MulawConverter`, the model's audio
 * as a SIP caller hears it. Appends go to turns/ (InputDecoder, TurnDetector) through session-turns.ts.
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

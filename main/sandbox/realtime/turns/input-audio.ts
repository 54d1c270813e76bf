/**
 * `input_audio_buffer.append` payloads to PCM16 at the session's input rate: `audio/pcm` (16-bit
 * little-endian mono at its `rate`), `audio/pcmu` and `audio/pcma` (G.711 at 8 kHz, one byte a
 * sample, decoded by shared/audio). An append need not end on a sample boundary: an odd byte of
 * PCM is carried into the next one, as a client cutting a stream into fixed-size chunks expects.
 */
import { decodeAlaw, decodeMulaw, pcm16FromBytes } from '../../../../shared/audio';

export type InputFormat = { type: 'audio/pcm'; rate: number } | { type: 'audio/pcmu' } | { type: 'audio/pcma' };

/** The sample rate a format carries (G.711 is always 8 kHz). */
export function rateOf(format: InputFormat): number {
  return format.type === 'audio/pcm' ? format.rate : 8000;
}

export class InputDecoder {
  private carry: Uint8Array | null = null;

  constructor(readonly format: InputFormat) {}

  get rate(): number {
    return rateOf(this.format);
  }

  /** One append's bytes (already base64-decoded) to samples. */
  decode(bytes: Uint8Array): Int16Array {
    if (this.format.type === 'audio/pcmu') return decodeMulaw(bytes);
    if (this.format.type === 'audio/pcma') return decodeAlaw(bytes);
    let all = bytes;
    if (this.carry) {
      all = new Uint8Array(this.carry.length + bytes.length);
      all.set(this.carry);
      all.set(bytes, this.carry.length);
      this.carry = null;
    }
    if (all.length % 2 === 1) {
      this.carry = all.slice(all.length - 1);
      all = all.subarray(0, all.length - 1);
    }
    return pcm16FromBytes(all);
  }

  /** A base64 append (`input_audio_buffer.append.audio`) to samples. */
  decodeBase64(audio: string): Int16Array {
    return this.decode(Buffer.from(audio, 'base64'));
  }
}

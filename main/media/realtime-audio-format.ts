/**
 * The audio formats of a realtime call's socket (`audio/pcm` at a rate, `audio/pcmu`, `audio/pcma`):
 * the options' schema, encoding our 20 ms frames for `input_audio_buffer.append`, decoding the
 * answer's deltas to PCM16, and the recording's hint. Used by realtime-call-session.ts.
 */
import { endianness } from 'node:os';
import { z } from 'zod';
import { decodeAlaw, decodeMulaw, encodeAlaw, encodeMulaw } from '../../shared/audio/g711';

export const formatSchema = z.object({ type: z.enum(['audio/pcm', 'audio/pcmu', 'audio/pcma']), rate: z.number().int().min(8000).max(48000) }).strict();

export type Format = z.infer<typeof formatSchema>;

export function encode(format: Format, pcm: Int16Array): Uint8Array {
  if (format.type === 'audio/pcmu') return encodeMulaw(pcm);
  if (format.type === 'audio/pcma') return encodeAlaw(pcm);
  return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}

export function decode(format: Format, bytes: Buffer): Int16Array {
  if (format.type === 'audio/pcmu') return decodeMulaw(bytes);
  if (format.type === 'audio/pcma') return decodeAlaw(bytes);
  const copy = new Int16Array(Math.floor(bytes.byteLength / 2));
  // One copy of the bytes on a little-endian host (every platform the app ships on), not a
  // readInt16LE call per sample (2400 of them per 100 ms delta, on the loop the microphone shares).
  if (LITTLE_ENDIAN) new Uint8Array(copy.buffer).set(bytes.subarray(0, copy.length * 2));
  else for (let i = 0; i < copy.length; i++) copy[i] = bytes.readInt16LE(i * 2);
  return copy;
}

const LITTLE_ENDIAN = endianness() === 'LE';

export function pcmBase64(pcm: Int16Array): string {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
}

export const hint = (f: Format) => ({ codec: f.type === 'audio/pcmu' ? ('mulaw' as const) : f.type === 'audio/pcma' ? ('alaw' as const) : ('pcm' as const), sampleRate: f.rate, channels: 1 });

/**
 * Streamed speech as the page's player takes it (mono PCM16 at the query's rate): `pcm` is
 * 16-bit little-endian (an odd byte is carried to the next chunk), µ-law and A-law are expanded
 * with shared/audio's G.711. MP3 and WAV cannot be played chunk by chunk here: `livePlayable`
 * says so and the view plays them when the utterance is complete.
 */
import { decodeAlaw, decodeMulaw } from '@shared/audio/g711';
import type { TtsCodec } from '@shared/wire/tts';

export function livePlayable(codec: TtsCodec): boolean {
  return codec === 'pcm' || codec === 'mulaw' || codec === 'ulaw' || codec === 'alaw';
}

export class StreamPcm {
  private carry: number | null = null;

  constructor(private readonly codec: TtsCodec) {}

  /** The samples of one chunk (empty for a codec that is not live playable). */
  push(bytes: Uint8Array): Int16Array {
    if (this.codec === 'mulaw' || this.codec === 'ulaw') return decodeMulaw(bytes);
    if (this.codec === 'alaw') return decodeAlaw(bytes);
    if (this.codec !== 'pcm') return new Int16Array(0);
    const all = this.carry === null ? bytes : Uint8Array.of(this.carry, ...bytes);
    const whole = all.byteLength - (all.byteLength % 2);
    this.carry = whole < all.byteLength ? all[whole]! : null;
    const out = new Int16Array(whole / 2);
    const view = new DataView(all.buffer, all.byteOffset, whole);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
    return out;
  }
}

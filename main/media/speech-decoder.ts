/**
 * The service's synthesised audio, as it arrives (REST's whole file or the WebSocket's
 * `audio.delta` chunks, cut anywhere), to mono PCM16 at the rate the request asked for:
 * - pcm: 16-bit little-endian (an odd byte at a chunk's end waits for the next chunk);
 * - mulaw / ulaw / alaw: G.711 through shared/audio;
 * - wav: the header is read (PCM16, µ-law or A-law; its rate and channels), then the data streams;
 * - mp3: mpg123 as WebAssembly (`mpg123-decoder`, the decoder the sandbox keeps), fed chunk by chunk.
 * A decoded rate or channel count other than the declared one is resampled / mixed down here, so
 * the player is opened once, before any audio arrives (the device is ready for the first delta).
 */
import { MPEGDecoder } from 'mpg123-decoder';
import { decodeAlaw, decodeMulaw } from '../../shared/audio/g711';
import { float32ToInt16, mixToMono } from '../../shared/audio/pcm';
import { Resampler } from '../../shared/audio/resampler';
import type { TtsCodec } from '../../shared/wire/tts';

export interface SpeechDecoder {
  /** Decodes what can be decoded of `bytes` (mono PCM16 at the declared rate; may be empty). */
  push(bytes: Uint8Array): Promise<Int16Array>;
  /** What is left at the end of the audio. */
  end(): Int16Array;
  dispose(): void;
}

const EMPTY = new Int16Array(0);

/** Any rate and channel count -> mono at `rate`, with the resampler's state kept across chunks. */
class ToMono {
  private resampler: Resampler | null = null;
  private from = 0;
  constructor(private readonly rate: number) {}

  push(pcm: Int16Array, rate: number, channels: number): Int16Array {
    const mono = channels === 1 ? pcm : mixToMono(pcm, channels);
    if (rate === this.rate) return mono;
    if (!this.resampler || this.from !== rate) {
      this.resampler = new Resampler(rate, this.rate, 1);
      this.from = rate;
    }
    return this.resampler.push(mono);
  }

  end(): Int16Array {
    return this.resampler?.flush() ?? EMPTY;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function int16le(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length >> 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

type Sample = 'pcm16' | 'mulaw' | 'alaw';

/** Headerless samples of one kind, cut anywhere: a partial frame (`frameBytes`) waits in `carry`. */
function samplesOf(kind: Sample, bytes: Uint8Array, carry: { bytes: Uint8Array }, frameBytes: number): Int16Array {
  const all = concat(carry.bytes, bytes);
  const whole = all.length - (all.length % frameBytes);
  carry.bytes = all.slice(whole);
  const body = all.subarray(0, whole);
  return kind === 'mulaw' ? decodeMulaw(body) : kind === 'alaw' ? decodeAlaw(body) : int16le(body);
}

class RawDecoder implements SpeechDecoder {
  private readonly carry = { bytes: new Uint8Array(0) };
  constructor(private readonly kind: Sample) {}
  async push(bytes: Uint8Array): Promise<Int16Array> {
    return samplesOf(this.kind, bytes, this.carry, this.kind === 'pcm16' ? 2 : 1);
  }
  end(): Int16Array {
    return EMPTY;
  }
  dispose(): void {}
}

/** RIFF/WAVE: chunks are read until `data`; what follows streams as samples. */
class WavDecoder implements SpeechDecoder {
  private head: Uint8Array = new Uint8Array(0);
  private format: { kind: Sample; rate: number; channels: number } | null = null;
  private inData = false;
  private readonly carry = { bytes: new Uint8Array(0) };
  private readonly mono: ToMono;

  constructor(rate: number) {
    this.mono = new ToMono(rate);
  }

  async push(bytes: Uint8Array): Promise<Int16Array> {
    if (!this.inData) {
      this.head = concat(this.head, bytes);
      const rest = this.readHeader();
      if (rest === null) return EMPTY;
      bytes = rest;
    }
    const f = this.format!;
    // Frames must not be cut between channels: keep a partial frame for the next chunk.
    const samples = samplesOf(f.kind, bytes, this.carry, (f.kind === 'pcm16' ? 2 : 1) * f.channels);
    return this.mono.push(samples, f.rate, f.channels);
  }

  end(): Int16Array {
    return this.mono.end();
  }

  dispose(): void {}

  /** The bytes after the `data` chunk's header, or null while the header is incomplete. */
  private readHeader(): Uint8Array | null {
    const b = this.head;
    if (b.length < 12) return null;
    const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    const ascii = (at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
    if (ascii(0) !== 'RIFF' || ascii(8) !== 'WAVE') throw new Error('The WAV audio does not start with a RIFF/WAVE header.');
    let at = 12;
    while (at + 8 <= b.length) {
      const id = ascii(at);
      const size = view.getUint32(at + 4, true);
      if (id === 'data') {
        if (!this.format) throw new Error('The WAV audio has no fmt chunk before its data.');
        this.inData = true;
        const rest = b.slice(at + 8);
        this.head = new Uint8Array(0);
        return rest;
      }
      if (at + 8 + size > b.length) return null;
      if (id === 'fmt ') {
        const tag = view.getUint16(at + 8, true);
        const channels = view.getUint16(at + 10, true);
        const rate = view.getUint32(at + 12, true);
        const bits = view.getUint16(at + 22, true);
        const kind: Sample | null = tag === 1 && bits === 16 ? 'pcm16' : tag === 7 ? 'mulaw' : tag === 6 ? 'alaw' : null;
        if (!kind || channels < 1 || channels > 2) throw new Error(`This WAV audio (format ${tag}, ${bits} bits, ${channels} channels) cannot be played: expected 16-bit PCM, µ-law or A-law, mono or stereo.`);
        this.format = { kind, rate, channels };
      }
      at += 8 + size + (size & 1);
    }
    return null;
  }
}

class Mp3Decoder implements SpeechDecoder {
  private readonly decoder = new MPEGDecoder();
  private readonly mono: ToMono;

  constructor(rate: number) {
    this.mono = new ToMono(rate);
  }

  async push(bytes: Uint8Array): Promise<Int16Array> {
    await this.decoder.ready;
    const d = this.decoder.decode(bytes);
    if (d.samplesDecoded === 0) return EMPTY;
    // Copied out of the decoder's memory (the next call reuses it).
    const channels = d.channelData.map((c) => float32ToInt16(c.subarray(0, d.samplesDecoded)));
    const interleaved = channels.length === 1 ? channels[0] : interleave2(channels[0], channels[1]);
    return this.mono.push(interleaved, d.sampleRate, channels.length === 1 ? 1 : 2);
  }

  end(): Int16Array {
    return this.mono.end();
  }

  dispose(): void {
    this.decoder.free();
  }
}

function interleave2(l: Int16Array, r: Int16Array): Int16Array {
  const out = new Int16Array(l.length * 2);
  for (let i = 0; i < l.length; i++) {
    out[i * 2] = l[i];
    out[i * 2 + 1] = r[i];
  }
  return out;
}

/** A decoder for one utterance in `codec`, producing mono PCM16 at `sampleRate`. */
export function speechDecoder(codec: TtsCodec, sampleRate: number): SpeechDecoder {
  switch (codec) {
    case 'pcm':
      return new RawDecoder('pcm16');
    case 'mulaw':
    case 'ulaw':
      return new RawDecoder('mulaw');
    case 'alaw':
      return new RawDecoder('alaw');
    case 'wav':
      return new WavDecoder(sampleRate);
    case 'mp3':
      return new Mp3Decoder(sampleRate);
  }
}

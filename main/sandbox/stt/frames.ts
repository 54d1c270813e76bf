/**
 * Binary WebSocket frames to PCM per channel: `pcm` (signed 16-bit little-endian, interleaved when
 * there are several channels), `mulaw` / `alaw` (G.711, one byte a sample, shared/audio), `opus`
 * (one raw packet per frame, mono, `opus-decoder` in WebAssembly, decoded at 16 kHz). A frame need
 * not end on a sample boundary: the bytes left over are carried into the next frame, as a client
 * cutting a stream into fixed-size chunks would expect. An Opus packet that libopus refuses is
 * undecodable (the session then sends `error` and closes).
 */
import { OpusDecoder } from 'opus-decoder';
import { decodeAlaw, decodeMulaw, pcm16FromBytes } from '../../../shared/audio';
import { OPUS_DECODE_RATE, type SttEncoding } from './params';

/** A frame the session cannot decode; the message says why. */
export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

/** The biggest frame taken: 10 s of 8-channel 48 kHz PCM; bigger is not a real-time chunk. */
export const MAX_FRAME_BYTES = 48_000 * 2 * 8 * 10;

export class FrameDecoder {
  private carry = new Uint8Array(0);
  private frames = 0;

  private constructor(
    readonly encoding: SttEncoding,
    readonly channels: number,
    private readonly opus: OpusDecoder<typeof OPUS_DECODE_RATE> | null,
  ) {}

  static async create(encoding: SttEncoding, channels: number): Promise<FrameDecoder> {
    if (encoding !== 'opus') return new FrameDecoder(encoding, channels, null);
    const opus = new OpusDecoder({ sampleRate: OPUS_DECODE_RATE, channels: 1 });
    await opus.ready;
    return new FrameDecoder(encoding, 1, opus);
  }

  /** One binary frame to one Int16Array per channel (possibly empty). Throws FrameError. */
  decode(frame: Uint8Array): Int16Array[] {
    this.frames++;
    if (frame.byteLength > MAX_FRAME_BYTES) {
      throw new FrameError(`Audio frame ${this.frames} has ${frame.byteLength} bytes; send at most ${MAX_FRAME_BYTES} (about 100 ms per frame is usual).`);
    }
    if (this.opus) return [this.decodeOpus(frame)];
    const bytesPerSample = this.encoding === 'pcm' ? 2 : 1;
    const block = bytesPerSample * this.channels;
    const all = this.carry.length === 0 ? frame : concatBytes(this.carry, frame);
    const usable = all.byteLength - (all.byteLength % block);
    this.carry = all.slice(usable);
    const bytes = all.subarray(0, usable);
    const samples = this.encoding === 'pcm' ? pcm16FromBytes(bytes) : this.encoding === 'mulaw' ? decodeMulaw(bytes) : decodeAlaw(bytes);
    return deinterleave(samples, this.channels);
  }

  private decodeOpus(packet: Uint8Array): Int16Array {
    if (packet.byteLength === 0) return new Int16Array(0);
    const out = this.opus!.decodeFrame(packet);
    if (out.errors.length > 0 || out.samplesDecoded === 0) {
      throw new FrameError(`Audio frame ${this.frames} is not an Opus packet libopus can decode (${out.errors[0]?.message ?? 'no samples'}); with encoding=opus send exactly one raw Opus packet per binary frame.`);
    }
    const data = out.channelData[0];
    const pcm = new Int16Array(out.samplesDecoded);
    for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(data[i] * 32767)));
    return pcm;
  }

  dispose(): void {
    this.opus?.free();
  }
}

export function deinterleave(samples: Int16Array, channels: number): Int16Array[] {
  if (channels === 1) return [samples];
  const n = Math.floor(samples.length / channels);
  const out = Array.from({ length: channels }, () => new Int16Array(n));
  for (let i = 0; i < n; i++) for (let c = 0; c < channels; c++) out[c][i] = samples[i * channels + c];
  return out;
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

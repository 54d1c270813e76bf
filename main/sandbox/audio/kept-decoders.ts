/**
 * The WebAssembly decoders, each made once and kept (starting one compiles and instantiates its
 * module: ~25 ms), used one call at a time (they hold state between calls) and reset after each
 * file so the next starts clean.
 *
 * FLAC: the decoder's frame parser drops the last, short frame of some files (seen on ffmpeg's
 * output: 57,600 of 57,936 samples). The file's STREAMINFO states the total; a shortfall of at most
 * one block is padded with silence, so `duration` is the file's true length.
 */
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import type { AudioDecodeResult } from './decode';

interface Decoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: Array<{ message: string }>;
}

/** Copies out of the decoder's memory (the next call reuses it) and checks something came out. */
function toResult(d: Decoded, format: 'mp3' | 'flac' | 'ogg-flac' | 'ogg-opus', name: string, minSamples = 0): AudioDecodeResult {
  if (d.samplesDecoded === 0) {
    const why = d.errors[0]?.message;
    return { ok: false, error: { code: 'corrupt_audio', message: `The ${name} file could not be decoded: no audio frame in it could be read${why ? ` (${why})` : ''}.` } };
  }
  const length = Math.max(d.samplesDecoded, minSamples);
  const channels = d.channelData.map((c) => {
    const out = new Float32Array(length);
    out.set(c.subarray(0, d.samplesDecoded));
    return out;
  });
  return { ok: true, audio: { format, sampleRate: d.sampleRate, channels, duration: length / d.sampleRate } };
}

/** Total samples and largest block size from a native FLAC file's STREAMINFO, or null. */
function flacStreamInfo(bytes: Uint8Array): { totalSamples: number; maxBlock: number } | null {
  // "fLaC", then a metadata block header (type 0 = STREAMINFO, length 34).
  if (bytes.length < 42 || (bytes[4] & 0x7f) !== 0) return null;
  const si = 8;
  const maxBlock = (bytes[si + 2] << 8) | bytes[si + 3];
  // Total samples: 36 bits starting at the low nibble of byte 13.
  const totalSamples = (bytes[si + 13] & 0x0f) * 2 ** 32 + ((bytes[si + 14] << 24) >>> 0) + (bytes[si + 15] << 16) + (bytes[si + 16] << 8) + bytes[si + 17];
  return { totalSamples, maxBlock };
}

export class KeptDecoders {
  private mpeg: MPEGDecoder | null = null;
  private flacDecoder: FLACDecoder | null = null;
  private opus: OggOpusDecoder | null = null;
  /** One decode at a time across all of them: they are cheap and this keeps memory bounded. */
  private queue: Promise<unknown> = Promise.resolve();

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  mp3(bytes: Uint8Array): Promise<AudioDecodeResult> {
    return this.serial(async () => {
      this.mpeg ??= new MPEGDecoder();
      const dec = this.mpeg;
      await dec.ready;
      try {
        return toResult(dec.decode(bytes), 'mp3', 'MP3');
      } finally {
        await dec.reset();
      }
    });
  }

  flac(bytes: Uint8Array, format: 'flac' | 'ogg-flac'): Promise<AudioDecodeResult> {
    return this.serial(async () => {
      this.flacDecoder ??= new FLACDecoder();
      const dec = this.flacDecoder;
      await dec.ready;
      try {
        const decoded = await dec.decodeFile(bytes);
        const info = format === 'flac' ? flacStreamInfo(bytes) : null;
        const short = info ? info.totalSamples - decoded.samplesDecoded : 0;
        const pad = info && short > 0 && short <= info.maxBlock ? info.totalSamples : 0;
        return toResult(decoded, format, format === 'flac' ? 'FLAC' : 'Ogg FLAC', pad);
      } finally {
        await dec.reset();
      }
    });
  }

  oggOpus(bytes: Uint8Array): Promise<AudioDecodeResult> {
    return this.serial(async () => {
      this.opus ??= new OggOpusDecoder();
      const dec = this.opus;
      await dec.ready;
      try {
        return toResult(await dec.decodeFile(bytes), 'ogg-opus', 'Ogg Opus');
      } finally {
        await dec.reset();
      }
    });
  }

  dispose(): void {
    this.mpeg?.free();
    this.flacDecoder?.free();
    this.opus?.free();
    this.mpeg = this.flacDecoder = this.opus = null;
  }
}

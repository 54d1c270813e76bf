/**
 * Audio files and raw audio -> float PCM, for the sandbox's speech-to-text and custom voices.
 * Containers are recognised by their magic bytes, never by a name or a Content-Type a client sent:
 * WAV (shared/audio/wav.ts: 16/24-bit PCM, 32-bit float, µ-law, A-law), MP3 (mpg123 in WebAssembly), FLAC and Ogg FLAC, Ogg Opus (WebAssembly
 * decoders from npm, kept: see kept-decoders.ts). Raw audio (pcm 16-bit LE, µ-law, A-law) needs
 * its rate and channel count from the caller. Anything else, or a file those decoders cannot read,
 * is an error value with a message a person can act on, never a throw.
 */
import { decodeAlaw, decodeMulaw } from '../../../shared/audio/g711';
import { parseWav } from '../../../shared/audio/wav';
import { KeptDecoders } from './kept-decoders';

export type AudioContainer = 'wav' | 'mp3' | 'flac' | 'ogg-flac' | 'ogg-opus' | 'raw';

export interface DecodedAudio {
  format: AudioContainer;
  sampleRate: number;
  /** One array per channel, samples in -1..1. */
  channels: Float32Array[];
  /** Seconds: samples per channel / sampleRate. */
  duration: number;
}

export type AudioDecodeErrorCode = 'unsupported_audio' | 'corrupt_audio' | 'empty_audio';

export interface AudioDecodeError {
  code: AudioDecodeErrorCode;
  message: string;
}

export type AudioDecodeResult = { ok: true; audio: DecodedAudio } | { ok: false; error: AudioDecodeError };

export type RawEncoding = 'pcm' | 'mulaw' | 'alaw';

/** What the magic bytes say a file is; `null` when nothing the sandbox knows. */
export type SniffedAudio = Exclude<AudioContainer, 'raw'> | 'ogg-vorbis' | 'ogg-other' | 'mp4' | 'matroska' | 'aac' | null;

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Recognises a container by its first bytes. */
export function sniffAudio(bytes: Uint8Array): SniffedAudio {
  if (bytes.length < 12) return null;
  const head4 = ascii(bytes, 0, 4);
  if ((head4 === 'RIFF' || head4 === 'RF64') && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (head4 === 'fLaC') return 'flac';
  if (head4 === 'OggS') {
    // The first page carries the codec's identification header.
    const first = ascii(bytes, 0, Math.min(bytes.length, 128));
    if (first.includes('OpusHead')) return 'ogg-opus';
    if (first.includes('FLAC')) return 'ogg-flac';
    if (first.includes('vorbis')) return 'ogg-vorbis';
    return 'ogg-other';
  }
  if (ascii(bytes, 4, 4) === 'ftyp') return 'mp4';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'matroska';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0) {
    // MPEG audio frame sync; layer bits 00 are AAC in ADTS framing, not MPEG-1/2 layer I-III.
    return ((bytes[1] >> 1) & 3) === 0 ? 'aac' : 'mp3';
  }
  return null;
}

const CONVERT = 'Send WAV, MP3, FLAC or Ogg Opus (for example: ffmpeg -i input output.wav).';

const UNSUPPORTED: Record<string, string> = {
  'ogg-vorbis': `Ogg Vorbis audio cannot be decoded by the sandbox. ${CONVERT}`,
  'ogg-other': `This Ogg file holds neither Opus nor FLAC audio. ${CONVERT}`,
  mp4: `MP4/M4A (AAC) audio cannot be decoded by the sandbox. ${CONVERT}`,
  matroska: `Matroska/WebM audio cannot be decoded by the sandbox. ${CONVERT}`,
  aac: `Raw AAC (ADTS) audio cannot be decoded by the sandbox. ${CONVERT}`,
};

/**
 * Decodes audio files with decoders kept between calls (WebAssembly instances cost ~25 ms each to
 * start). One per sandbox; `dispose()` frees them.
 */
export class AudioDecoder {
  private readonly kept = new KeptDecoders();

  /** A whole file, recognised by its magic bytes. */
  async decodeFile(bytes: Uint8Array): Promise<AudioDecodeResult> {
    if (bytes.length === 0) return { ok: false, error: { code: 'empty_audio', message: 'The audio file is empty (0 bytes).' } };
    const kind = sniffAudio(bytes);
    if (kind === null) {
      return { ok: false, error: { code: 'unsupported_audio', message: `The file is not audio the sandbox recognises (its first bytes match no WAV, MP3, FLAC or Ogg Opus header). ${CONVERT}` } };
    }
    if (kind in UNSUPPORTED) return { ok: false, error: { code: 'unsupported_audio', message: UNSUPPORTED[kind] } };
    let result: AudioDecodeResult;
    try {
      if (kind === 'wav') result = decodeWav(bytes);
      else if (kind === 'mp3') result = await this.kept.mp3(bytes);
      else if (kind === 'flac' || kind === 'ogg-flac') result = await this.kept.flac(bytes, kind);
      else result = await this.kept.oggOpus(bytes);
    } catch (err) {
      // The decoders throw on some malformed input (a bad Ogg page, a truncated header).
      const name = kind.toUpperCase().replace('-', ' ');
      return { ok: false, error: { code: 'corrupt_audio', message: `The ${name} file could not be decoded: ${err instanceof Error ? err.message : String(err)}.` } };
    }
    if (result.ok && result.audio.channels[0].length === 0) {
      return { ok: false, error: { code: 'empty_audio', message: `The ${kind.toUpperCase()} file holds no audio samples.` } };
    }
    return result;
  }

  /** Frees the kept decoders; the object must not be used afterwards. */
  dispose(): void {
    this.kept.dispose();
  }
}

/** Raw audio: interleaved frames of `channels` samples in `encoding`. */
export function decodeRaw(bytes: Uint8Array, options: { encoding: RawEncoding; sampleRate: number; channels?: number }): AudioDecodeResult {
  const channels = options.channels ?? 1;
  const bytesPer = options.encoding === 'pcm' ? 2 : 1;
  const frameBytes = bytesPer * channels;
  if (bytes.length === 0) return { ok: false, error: { code: 'empty_audio', message: 'The audio is empty (0 bytes).' } };
  if (bytes.length % frameBytes !== 0) {
    return {
      ok: false,
      error: {
        code: 'corrupt_audio',
        message: `${bytes.length} bytes is not a whole number of ${options.encoding} frames (${frameBytes} bytes each for ${channels} channel${channels === 1 ? '' : 's'}).`,
      },
    };
  }
  const frames = bytes.length / frameBytes;
  let samples: Int16Array;
  if (options.encoding === 'pcm') {
    samples = new Int16Array(frames * channels);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  } else {
    samples = (options.encoding === 'mulaw' ? decodeMulaw : decodeAlaw)(bytes);
  }
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) out[c][i] = samples[i * channels + c] / 32768;
  return { ok: true, audio: { format: 'raw', sampleRate: options.sampleRate, channels: out, duration: frames / options.sampleRate } };
}

/** Mono mix of decoded audio (the mean of its channels). */
export function mixToMono(audio: DecodedAudio): Float32Array {
  if (audio.channels.length === 1) return audio.channels[0];
  const out = new Float32Array(audio.channels[0].length);
  for (const ch of audio.channels) for (let i = 0; i < out.length; i++) out[i] += ch[i] / audio.channels.length;
  return out;
}

/** A WAV file through shared/audio's parser, as float channels. */
export function decodeWav(bytes: Uint8Array): AudioDecodeResult {
  const parsed = parseWav(bytes);
  if (!parsed.ok) return { ok: false, error: { code: parsed.error.code === 'unsupported' ? 'unsupported_audio' : 'corrupt_audio', message: parsed.error.message } };
  const { samples, channels, sampleRate, frames } = parsed.value;
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i++) for (let c = 0; c < channels; c++) out[c][i] = samples[i * channels + c] / 32768;
  return { ok: true, audio: { format: 'wav', sampleRate, channels: out, duration: frames / sampleRate } };
}

/**
 * WAV (RIFF/WAVE) files: written as PCM16, read as PCM16, PCM24, float32, µ-law or A-law (plain
 * or WAVE_FORMAT_EXTENSIBLE). Anything else is refused with a message that names what the file
 * holds, so a user who drops an 8-bit or ADPCM file knows what to convert it to.
 */
import { audioError, type AudioError, type AudioResult } from './errors';
import { decodeAlaw, decodeMulaw } from './g711';
import { clampInt16 } from './pcm';

export interface PcmAudio {
  sampleRate: number;
  channels: number;
  /** Interleaved PCM16 samples (frames × channels). */
  samples: Int16Array;
}

export type WavEncoding = 'pcm16' | 'pcm24' | 'float32' | 'mulaw' | 'alaw';

export interface ParsedWav extends PcmAudio {
  /** How the file stored its samples (they are converted to PCM16 either way). */
  encoding: WavEncoding;
  /** Whole frames read. */
  frames: number;
  durationMs: number;
  /** The data chunk said it was longer than the file: the samples present were kept. */
  truncated: boolean;
}

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_ALAW = 0x0006;
const FORMAT_MULAW = 0x0007;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Biggest RIFF a 32-bit size field can describe. */
const MAX_RIFF_BYTES = 0xffffffff;

/** A 44-byte canonical header followed by the samples, little-endian. */
export function encodeWav(audio: PcmAudio): Uint8Array {
  const { sampleRate, channels, samples } = audio;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sample rate must be a positive integer, got ${sampleRate}`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 65535) throw new RangeError(`channels must be 1 to 65535, got ${channels}`);
  if (samples.length % channels !== 0) throw new RangeError(`${samples.length} samples are not whole ${channels}-channel frames`);
  const dataBytes = samples.length * 2;
  if (dataBytes + 36 > MAX_RIFF_BYTES) throw new RangeError('audio too long for one WAV file (4 GiB)');
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  writeHeader(view, { sampleRate, channels, dataBytes });
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i], true);
  return out;
}

/**
 * The 44-byte header alone, for writers that stream samples after it (a recording) and patch
 * the sizes when they finish.
 */
export function wavHeader(format: { sampleRate: number; channels: number; dataBytes: number }): Uint8Array {
  const out = new Uint8Array(44);
  writeHeader(new DataView(out.buffer), format);
  return out;
}

function writeHeader(view: DataView, { sampleRate, channels, dataBytes }: { sampleRate: number; channels: number; dataBytes: number }): void {
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, Math.min(36 + dataBytes, MAX_RIFF_BYTES), true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, FORMAT_PCM, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, Math.min(dataBytes, MAX_RIFF_BYTES), true);
}

interface Fmt {
  formatTag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
}

/** Reads a WAV file into PCM16. Never throws: a file it cannot read comes back as an error value. */
export function parseWav(bytes: Uint8Array): AudioResult<ParsedWav> {
  if (bytes.length < 12) return audioError('corrupt', `Not a WAV file: ${bytes.length} bytes is shorter than a RIFF header.`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (offset: number) => String.fromCharCode(bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]);
  const riff = tag(0);
  if (riff === 'RF64' || riff === 'RIFX') {
    return audioError('unsupported', `This is an ${riff} file; only little-endian RIFF WAV is read. Convert it to a plain WAV.`);
  }
  if (riff !== 'RIFF' || tag(8) !== 'WAVE') return audioError('corrupt', 'Not a WAV file: it does not start with RIFF…WAVE.');

  let fmt: Fmt | null = null;
  let data: { offset: number; declared: number } | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) return audioError('corrupt', 'The WAV file\'s "fmt " chunk is cut short.');
      fmt = {
        formatTag: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
      if (fmt.formatTag === FORMAT_EXTENSIBLE) {
        // cbSize(2) validBits(2) channelMask(4) then the sub-format GUID, whose first two bytes are the format tag.
        if (size < 40 || body + 26 > bytes.length) return audioError('corrupt', 'The WAV file\'s extensible "fmt " chunk is cut short.');
        fmt.formatTag = view.getUint16(body + 24, true);
      }
    } else if (id === 'data') {
      data = { offset: body, declared: size };
      break; // Samples run to the end of the chunk; anything after them is metadata we do not need.
    }
    offset = body + size + (size % 2); // chunks are padded to an even length
  }
  if (!fmt) return audioError('corrupt', 'The WAV file has no "fmt " chunk, so its sample format is unknown.');
  if (!data) return audioError('corrupt', 'The WAV file has no "data" chunk (no samples).');

  const encoding = encodingOf(fmt);
  if (typeof encoding !== 'string') return encoding;
  const { channels, sampleRate } = fmt;
  if (channels < 1) return audioError('corrupt', 'The WAV file says it has 0 channels.');
  if (sampleRate < 1) return audioError('corrupt', 'The WAV file says its sample rate is 0 Hz.');
  const bytesPerSample = fmt.bitsPerSample / 8;
  const frameBytes = bytesPerSample * channels;

  // A streaming writer leaves 0 or 0xFFFFFFFF when it could not seek back: read to the end then.
  const available = bytes.length - data.offset;
  const unknownSize = data.declared === 0 || data.declared === 0xffffffff;
  const dataBytes = unknownSize ? available : Math.min(data.declared, available);
  const frames = Math.floor(dataBytes / frameBytes);
  const samples = decodeSamples(bytes.subarray(data.offset, data.offset + frames * frameBytes), encoding);
  return {
    ok: true,
    value: {
      sampleRate,
      channels,
      samples,
      encoding,
      frames,
      durationMs: (frames * 1000) / sampleRate,
      truncated: !unknownSize && data.declared > available,
    },
  };
}

function encodingOf(fmt: Fmt): WavEncoding | { ok: false; error: AudioError } {
  const bits = fmt.bitsPerSample;
  switch (fmt.formatTag) {
    case FORMAT_PCM:
      if (bits === 16) return 'pcm16';
      if (bits === 24) return 'pcm24';
      return audioError('unsupported', `This WAV file holds ${bits}-bit PCM; 16- and 24-bit PCM, 32-bit float, µ-law and A-law are read. Convert it to 16-bit PCM.`);
    case FORMAT_FLOAT:
      if (bits === 32) return 'float32';
      return audioError('unsupported', `This WAV file holds ${bits}-bit float samples; only 32-bit float is read. Convert it to 16-bit PCM.`);
    case FORMAT_MULAW:
    case FORMAT_ALAW:
      if (bits !== 8) return audioError('corrupt', `This WAV file says its G.711 samples are ${bits} bits; G.711 is 8 bits per sample.`);
      return fmt.formatTag === FORMAT_MULAW ? 'mulaw' : 'alaw';
    default:
      return audioError(
        'unsupported',
        `This WAV file is compressed with format 0x${fmt.formatTag.toString(16).padStart(4, '0')}${FORMAT_NAMES[fmt.formatTag] ? ` (${FORMAT_NAMES[fmt.formatTag]})` : ''}; only PCM, float, µ-law and A-law WAVs are read. Convert it to 16-bit PCM.`,
      );
  }
}

const FORMAT_NAMES: Record<number, string> = { 0x0002: 'MS ADPCM', 0x0011: 'IMA ADPCM', 0x0031: 'GSM 6.10', 0x0055: 'MP3', 0x0161: 'WMA' };

function decodeSamples(bytes: Uint8Array, encoding: WavEncoding): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (encoding) {
    case 'pcm16': {
      const out = new Int16Array(bytes.length / 2);
      for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
      return out;
    }
    case 'pcm24': {
      const out = new Int16Array(bytes.length / 3);
      for (let i = 0; i < out.length; i++) {
        const value = (bytes[i * 3] | (bytes[i * 3 + 1] << 8) | (bytes[i * 3 + 2] << 16)) << 8 >> 8;
        out[i] = clampInt16(value / 256);
      }
      return out;
    }
    case 'float32': {
      const out = new Int16Array(bytes.length / 4);
      for (let i = 0; i < out.length; i++) out[i] = clampInt16(view.getFloat32(i * 4, true) * 32768);
      return out;
    }
    case 'mulaw':
      return decodeMulaw(bytes);
    case 'alaw':
      return decodeAlaw(bytes);
  }
}

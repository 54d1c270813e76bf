/**
 * What a service WebSocket's frames look like to the inspector and the recorder: each frame in
 * either direction as a CapturedFrame, the connection's secrets masked, audio summarised (its
 * size, an estimate of its duration and a hash of its first bytes), never dumped: binary frames,
 * and the base64 audio fields inside JSON messages (`audio`, anywhere; `delta` of an audio delta
 * message). The same marking keeps audio out of the scrubber on the way to the consumer: a key
 * cannot be told from audio bytes, and masking would corrupt the sound.
 */
import { createHash } from 'node:crypto';

export type FrameDirection = 'in' | 'out';

/** How to estimate an audio payload's duration from its size. */
export interface AudioFormatHint {
  codec: 'pcm' | 'mulaw' | 'alaw' | 'mp3' | 'wav' | 'opus' | 'unknown';
  sampleRate?: number;
  channels?: number;
  /** mp3: bits per second. */
  bitRate?: number;
}

/** Audio as recorded: never its bytes. `head` identifies it (the recorder lines it up with its track). */
export interface AudioSummary {
  bytes: number;
  /** Estimated from the format; null when the format does not tell (opus, unknown). */
  durationMs: number | null;
  /** First 16 hex digits of the SHA-256 of its first HEAD_BYTES bytes; null when not known. */
  head: string | null;
}

interface FrameBase {
  direction: FrameDirection;
  /** Monotonic ms (the socket's clock, performance.now() unless injected). */
  at: number;
  /** Order on this socket, both directions together, from 0. */
  seq: number;
  /** Size of the frame as sent or received. */
  bytes: number;
}

/** What a frame held. JSON data has audio fields replaced by `{ $audio: AudioSummary }`; `issue` says why it was not understood. */
export type FrameBody =
  | { kind: 'json'; type: string | null; data: unknown; issue?: string }
  | { kind: 'text'; text: string; issue?: string }
  | { kind: 'binary'; audio: AudioSummary };

/** One frame either way, as recorded. */
export type CapturedFrame = FrameBase & FrameBody;

const HEAD_BYTES = 4096;

/** The duration of `bytes` of audio in `format`, in ms, or null when it cannot be told. */
export function audioDurationMs(bytes: number, format: AudioFormatHint | undefined, first?: Uint8Array): number | null {
  if (!format) return null;
  const rate = format.sampleRate ?? 0;
  const channels = format.channels ?? 1;
  switch (format.codec) {
    case 'pcm':
      return rate > 0 ? (bytes / (2 * rate * channels)) * 1000 : null;
    case 'mulaw':
    case 'alaw':
      return rate > 0 ? (bytes / (rate * channels)) * 1000 : null;
    case 'mp3':
      return format.bitRate ? ((bytes * 8) / format.bitRate) * 1000 : null;
    case 'wav': {
      // A chunk with the RIFF header: its byte rate and a 44-byte header; a later chunk is PCM.
      if (first && first.length >= 32 && Buffer.from(first.subarray(0, 4)).toString('latin1') === 'RIFF') {
        const byteRate = Buffer.from(first.buffer, first.byteOffset, first.byteLength).readUInt32LE(28);
        return byteRate > 0 ? (Math.max(0, bytes - 44) / byteRate) * 1000 : null;
      }
      return rate > 0 ? (bytes / (2 * rate * channels)) * 1000 : null;
    }
    default:
      return null;
  }
}

export function summariseAudio(bytes: Uint8Array, format?: AudioFormatHint): AudioSummary {
  const head = createHash('sha256').update(bytes.subarray(0, HEAD_BYTES)).digest('hex').slice(0, 16);
  const durationMs = audioDurationMs(bytes.byteLength, format, bytes.subarray(0, 64));
  return { bytes: bytes.byteLength, durationMs: durationMs === null ? null : Math.round(durationMs * 10) / 10, head };
}

/** The summary of base64 audio, decoding only its head (the size comes from the text's length). */
export function summariseBase64Audio(text: string, format?: AudioFormatHint): AudioSummary {
  const trimmed = text.replace(/=+$/, '');
  const bytes = Math.floor((trimmed.length * 3) / 4);
  const first = Buffer.from(text.slice(0, Math.ceil(HEAD_BYTES / 3) * 4), 'base64');
  const head = createHash('sha256').update(first.subarray(0, HEAD_BYTES)).digest('hex').slice(0, 16);
  const durationMs = audioDurationMs(bytes, format, first.subarray(0, 64));
  return { bytes, durationMs: durationMs === null ? null : Math.round(durationMs * 10) / 10, head };
}

/**
 * An audio summary made only when something reads it (a getter, or JSON.stringify through
 * toJSON): the decode of the head and its SHA-256 cost a microphone's append 50 times a second
 * and each answer delta as much, on the media process's loop, for frames nobody may read. It
 * keeps what it needs (the text or the bytes) until then, and drops it once computed.
 */
export class LazyAudioSummary implements AudioSummary {
  private made: AudioSummary | null = null;
  constructor(private make: (() => AudioSummary) | null) {}

  private get value(): AudioSummary {
    if (!this.made) {
      this.made = this.make!();
      this.make = null;
    }
    return this.made;
  }

  get bytes(): number {
    return this.value.bytes;
  }
  get durationMs(): number | null {
    return this.value.durationMs;
  }
  get head(): string | null {
    return this.value.head;
  }
  /** Whether it has been made (tests: the work is not done for a frame nobody read). */
  get computed(): boolean {
    return this.made !== null;
  }
  toJSON(): AudioSummary {
    return { ...this.value };
  }
}

/** summariseAudio, when read. */
export function lazyAudioSummary(bytes: Uint8Array, format?: AudioFormatHint): LazyAudioSummary {
  return new LazyAudioSummary(() => summariseAudio(bytes, format));
}

/** A base64 audio string while a message is scrubbed: a class instance, so the scrubber passes it as is. */
class AudioText {
  constructor(readonly text: string) {}
}

/** Whether `delta` of a message of `type` is audio (`audio.delta`, `response.output_audio.delta`, beta `response.audio.delta`). */
export function isAudioDeltaType(type: unknown): boolean {
  return typeof type === 'string' && (type === 'audio.delta' || /(^|\.)(output_)?audio\.delta$/.test(type));
}

const MAX_DEPTH = 12;

/** A copy of `value` with each audio field `f`-mapped (containers copied only along the way). */
function mapAudio(value: unknown, f: (s: string) => unknown, depth = 0, audioDelta = false): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || value instanceof AudioText) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((v, i) => {
      const next = mapAudio(v, f, depth + 1);
      if (next !== v) (out ??= value.slice())[i] = next;
    });
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(obj)) {
    const isAudio = typeof v === 'string' && (k === 'audio' || (k === 'delta' && audioDelta));
    const next = isAudio ? f(v) : mapAudio(v, f, depth + 1);
    if (next !== v) (out ??= { ...obj })[k] = next;
  }
  return out ?? value;
}

function unmark(value: unknown, f: (a: AudioText) => unknown, depth = 0): unknown {
  if (value instanceof AudioText) return f(value);
  if (depth > MAX_DEPTH + 1 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => unmark(v, f, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = unmark(v, f, depth + 1);
  return out;
}

/** A run of base64 this long inside any captured text is encoded data (audio a service quotes back, an unknown audio field). */
const LONG_BASE64 = /[A-Za-z0-9+/_-]{1024,}={0,2}/g;

/** `text` with every long base64 run replaced by its size and head hash (never dumped). */
export function summariseLongBase64(text: string): string {
  if (text.length < 1024) return text;
  return text.replace(LONG_BASE64, (run) => {
    const s = summariseBase64Audio(run);
    return `[${s.bytes} bytes of base64, sha256 ${s.head}…]`;
  });
}

/** Every string in `value` (keys aside) through summariseLongBase64. */
function summariseStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return summariseLongBase64(value);
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || value instanceof LazyAudioSummary) return value;
  if (Array.isArray(value)) return value.map((v) => summariseStrings(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = summariseStrings(v, depth + 1);
  return out;
}

/**
 * A parsed JSON message prepared twice: `forConsumer` has secrets masked everywhere but in audio
 * fields (kept exact), `forCapture` has secrets masked, audio fields summarised (lazily: a
 * LazyAudioSummary, made when read), and any other long base64 run in its texts summarised too.
 */
export function prepareMessage(value: unknown, scrub: (v: unknown) => unknown, format?: AudioFormatHint, capture = true): { forConsumer: unknown; forCapture: unknown; hasAudio: boolean } {
  const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  let hasAudio = false;
  const marked = mapAudio(value, (s) => {
    hasAudio = true;
    return new AudioText(s);
  }, 0, isAudioDeltaType(type));
  const scrubbed = scrub(marked);
  // Nothing masked (the scrubber shares what it leaves unchanged): the consumer takes the message
  // as parsed, without a copy (an answer's audio delta, many a second, on the media process's loop).
  if (!capture && scrubbed === marked) return { forConsumer: value, forCapture: null, hasAudio };
  // Without a capture (no inspector, no recorder) the summaries are not made at all.
  if (!hasAudio) return { forConsumer: scrubbed, forCapture: capture ? summariseStrings(scrubbed) : null, hasAudio };
  return {
    forConsumer: unmark(scrubbed, (a) => a.text),
    forCapture: capture ? summariseStrings(unmark(scrubbed, (a) => ({ $audio: new LazyAudioSummary(() => summariseBase64Audio(a.text, format)) }))) : null,
    hasAudio,
  };
}

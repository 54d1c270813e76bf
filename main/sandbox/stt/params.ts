/**
 * The transcription options and their rules (spec "Voice - speech to text" and Limits; wire-notes
 * 4.1 for the REST form), checked before any audio is read: the WebSocket's query parameters
 * before the upgrade, the REST form's fields before the file. Every broken rule is named in one
 * message; unknown names are refused (a typo would otherwise be silently ignored).
 */
import type { WordStyle } from './words';

/** Opus is decoded straight to the detector's rate. */
export const OPUS_DECODE_RATE = 16000;
export const STT_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export const STT_ENCODINGS = ['pcm', 'mulaw', 'alaw', 'opus'] as const;
export const STT_MODELS = ['svc-voice-transcribe-1.0', 'svc-voice-transcribe-2.0'] as const;
export type SttEncoding = (typeof STT_ENCODINGS)[number];

export const STT_LIMITS = {
  maxKeyterms: 100,
  maxKeytermLength: 50,
  minChannels: 2,
  maxChannels: 8,
  maxEndpointingMs: 5000,
  defaultEndpointingMs: 400,
  maxSmartTurnTimeoutMs: 5000,
  defaultVadThreshold: 0.08,
  defaultSampleRate: 16000,
} as const;

/** The WebSocket session's options. */
export interface StreamOptions {
  sampleRate: number;
  encoding: SttEncoding;
  interimResults: boolean;
  endpointingMs: number;
  language: string | null;
  model: string;
  multichannel: boolean;
  channels: number;
  diarize: boolean;
  smartTurn: number | null;
  smartTurnTimeoutMs: number | null;
  vadThreshold: number;
  style: WordStyle;
}

/** What the REST form asks for (the audio itself comes separately). */
export interface FormOptions {
  audioFormat: Exclude<SttEncoding, 'opus'> | null;
  sampleRate: number | null;
  language: string | null;
  multichannel: boolean;
  channels: number | null;
  diarize: boolean;
  style: WordStyle;
}

/** Thrown with every broken rule of one request. */
export class SttParamError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
    this.name = 'SttParamError';
  }
}

const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Reads named values (query entries or form fields), collecting problems instead of throwing. */
class Reader {
  readonly problems: string[] = [];
  private readonly values = new Map<string, string[]>();

  constructor(
    entries: Iterable<[string, string]>,
    private readonly where: string,
    known: readonly string[],
    repeatable: readonly string[],
  ) {
    for (const [name, value] of entries) {
      if (!known.includes(name)) {
        this.problems.push(`Unknown ${where} "${name}"; the ${where}s are ${known.join(', ')}.`);
        continue;
      }
      const list = this.values.get(name) ?? [];
      list.push(value);
      this.values.set(name, list);
      if (list.length === 2 && !repeatable.includes(name)) this.problems.push(`${this.where} ${name} is given more than once; give it once.`);
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }

  string(name: string): string | null {
    return this.values.get(name)?.[0] ?? null;
  }

  boolean(name: string): boolean {
    const v = this.string(name);
    if (v === null) return false;
    if (v === 'true') return true;
    if (v !== 'false') this.problems.push(`${name} must be "true" or "false", not "${clip(v)}".`);
    return false;
  }

  integer(name: string, min: number, max: number, rule = `an integer from ${min} to ${max}`): number | null {
    const v = this.string(name);
    if (v === null) return null;
    const n = /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be ${rule}, not "${clip(v)}".`);
      return null;
    }
    return n;
  }

  number(name: string, min: number, max: number): number | null {
    const v = this.string(name);
    if (v === null) return null;
    const n = v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || n < min || n > max) {
      this.problems.push(`${name} must be a number from ${min.toFixed(1)} to ${max.toFixed(1)}, not "${clip(v)}".`);
      return null;
    }
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | null {
    const v = this.string(name);
    if (v === null) return null;
    if (!(allowed as readonly string[]).includes(v)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, not "${clip(v)}".`);
      return null;
    }
    return v as T;
  }

  sampleRate(name: string): number | null {
    const v = this.string(name);
    if (v === null) return null;
    const n = /^\d+$/.test(v.trim()) ? Number(v) : NaN;
    if ((STT_SAMPLE_RATES as readonly number[]).includes(n)) return n;
    this.problems.push(`${name} must be one of ${STT_SAMPLE_RATES.join(', ')}, not "${clip(v)}".`);
    return null;
  }

  language(): string | null {
    const v = this.string('language');
    if (v === null || v === '') return null;
    if (!LANGUAGE.test(v) || v.length > 35) this.problems.push(`language must be a BCP-47 language tag such as en or pt-BR, not "${clip(v)}".`);
    return v;
  }

  keyterms(): string[] {
    const terms = this.all('keyterm');
    if (terms.length > STT_LIMITS.maxKeyterms) this.problems.push(`keyterm is given ${terms.length} times; at most ${STT_LIMITS.maxKeyterms} terms are allowed.`);
    const bad = terms.findIndex((t) => t.trim() === '' || [...t].length > STT_LIMITS.maxKeytermLength);
    if (bad >= 0) this.problems.push(`keyterm ${bad + 1} must be 1 to ${STT_LIMITS.maxKeytermLength} characters (it has ${[...terms[bad]].length}).`);
    return terms.map((t) => t.trim());
  }

  /** Throws with every problem found, if any. */
  check(): void {
    if (this.problems.length > 0) throw new SttParamError(this.problems);
  }
}

const clip = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

const STREAM_PARAMS = [
  'sample_rate', 'encoding', 'interim_results', 'endpointing', 'language', 'model', 'multichannel', 'channels',
  'diarize', 'keyterm', 'filler_words', 'smart_turn', 'smart_turn_timeout', 'vad_threshold',
];

/** The WebSocket's query parameters (`api_key`-style credentials are the caller's to strip first). */
export function parseStreamParams(query: Iterable<[string, string]>): StreamOptions {
  const r = new Reader(query, 'query parameter', STREAM_PARAMS, ['keyterm']);
  const encoding = r.oneOf('encoding', STT_ENCODINGS) ?? 'pcm';
  // Opus packets carry their own rate: sample_rate is ignored (spec), they are decoded at 16 kHz.
  const rate = encoding === 'opus' ? OPUS_DECODE_RATE : (r.sampleRate('sample_rate') ?? STT_LIMITS.defaultSampleRate);
  const multichannel = r.boolean('multichannel');
  const channels = r.integer('channels', 1, STT_LIMITS.maxChannels, `an integer from ${STT_LIMITS.minChannels} to ${STT_LIMITS.maxChannels} (1, the default, for mono)`);
  if (multichannel && (channels === null || channels < STT_LIMITS.minChannels) && r.problems.length === 0) {
    r.problems.push(`multichannel=true needs channels from ${STT_LIMITS.minChannels} to ${STT_LIMITS.maxChannels} (how many channels are interleaved in each frame).`);
  }
  if (encoding === 'opus' && (multichannel || (channels ?? 1) > 1)) r.problems.push('encoding=opus is mono only: leave out multichannel and channels, or send pcm, mulaw or alaw.');
  const smartTurn = r.number('smart_turn', 0, 1);
  const timeout = r.integer('smart_turn_timeout', 1, STT_LIMITS.maxSmartTurnTimeoutMs);
  if (r.has('smart_turn_timeout') && !r.has('smart_turn')) r.problems.push('smart_turn_timeout only applies with smart_turn: set smart_turn (0.0 to 1.0) too.');
  const language = r.language();
  const options: StreamOptions = {
    sampleRate: rate,
    encoding,
    interimResults: r.boolean('interim_results'),
    endpointingMs: r.integer('endpointing', 0, STT_LIMITS.maxEndpointingMs) ?? STT_LIMITS.defaultEndpointingMs,
    language,
    model: r.oneOf('model', STT_MODELS) ?? 'svc-voice-transcribe-2.0',
    multichannel,
    channels: channels ?? 1,
    diarize: r.boolean('diarize'),
    smartTurn,
    smartTurnTimeoutMs: smartTurn === null ? null : timeout,
    vadThreshold: r.number('vad_threshold', 0, 1) ?? STT_LIMITS.defaultVadThreshold,
    style: { fillerWords: r.boolean('filler_words'), keyterms: r.keyterms(), itn: language !== null },
  };
  r.check();
  return options;
}

const FORM_FIELDS = ['file', 'url', 'audio_format', 'sample_rate', 'sample_rate_hertz', 'language', 'format', 'multichannel', 'channels', 'diarize', 'filler_words', 'keyterm'];

/** The REST form's text fields (`file` is the caller's; `url` is read here only for its presence rules). */
export function parseFormFields(fields: Iterable<[string, string]>, hasFile: boolean): FormOptions & { url: string | null } {
  const r = new Reader(fields, 'form field', FORM_FIELDS, ['keyterm']);
  const url = r.string('url');
  if (hasFile && url !== null) r.problems.push('Send either file or url, not both.');
  if (!hasFile && url === null) r.problems.push('Send the audio as a file part (the last part of the form) or give its url.');
  const audioFormat = r.oneOf('audio_format', ['pcm', 'mulaw', 'alaw'] as const);
  if (r.has('sample_rate') && r.has('sample_rate_hertz')) r.problems.push('sample_rate_hertz is an alias of sample_rate: give one of them.');
  const sampleRate = r.has('sample_rate') ? r.sampleRate('sample_rate') : r.sampleRate('sample_rate_hertz');
  if (audioFormat !== null && sampleRate === null && !r.has('sample_rate') && !r.has('sample_rate_hertz')) {
    r.problems.push(`audio_format=${audioFormat} is raw audio with no header: give its sample_rate (${STT_SAMPLE_RATES.join(', ')}).`);
  }
  const language = r.language();
  const format = r.boolean('format');
  if (format && language === null) r.problems.push('format=true (inverse text normalisation) needs a language.');
  const multichannel = r.boolean('multichannel');
  const channels = r.integer('channels', STT_LIMITS.minChannels, STT_LIMITS.maxChannels);
  if (channels !== null && audioFormat === null) r.problems.push('channels is only for raw audio (with audio_format); a container file says how many channels it has.');
  if (audioFormat !== null && multichannel && channels === null && !r.has('channels')) r.problems.push(`multichannel raw audio needs channels (${STT_LIMITS.minChannels} to ${STT_LIMITS.maxChannels}).`);
  const options = {
    url,
    audioFormat,
    sampleRate,
    language,
    multichannel,
    channels,
    diarize: r.boolean('diarize'),
    style: { fillerWords: r.boolean('filler_words'), keyterms: r.keyterms(), itn: format },
  };
  r.check();
  return options;
}

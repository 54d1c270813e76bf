/**
 * Wire shapes of speech to text (spec/service.md "Voice - speech to text", "Speech-to-text
 * result", "Streaming speech-to-text messages", Limits; wire-notes §4). Shared by the client
 * (main/api/stt.ts), the sandbox (main/sandbox/stt) and the Transcription playground. Schemas are
 * loose (unknown fields pass through) and accept the names seen in the wild: `channel_index` or
 * `channel`, `sample_rate` or `sample_rate_hertz`.
 */
import { z } from 'zod';
import { wsMessageParser, type WsMessageParser } from './ws-message';

export const STT_ENCODINGS = ['pcm', 'mulaw', 'alaw', 'opus'] as const;
export type SttEncoding = (typeof STT_ENCODINGS)[number];
export const STT_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export const STT_MODELS = ['svc-voice-transcribe-1.0', 'svc-voice-transcribe-2.0'] as const;

export const STT_LIMITS = {
  sampleRateDefault: 16_000,
  encodingDefault: 'pcm' as SttEncoding,
  modelDefault: 'svc-voice-transcribe-2.0',
  endpointingDefault: 400,
  endpointingMin: 0,
  endpointingMax: 5000,
  channelsMin: 2,
  channelsMax: 8,
  keytermsMax: 100,
  keytermCharsMax: 50,
  smartTurnMin: 0,
  smartTurnMax: 1,
  smartTurnTimeoutMin: 1,
  smartTurnTimeoutMax: 5000,
  vadThresholdDefault: 0.08,
  /** REST upload (wire-notes §4.1). */
  maxFileBytes: 500 * 1024 * 1024,
  /** About every 500 ms of audio when `interim_results`. */
  interimCadenceMs: 500,
} as const;

/** One word. `speaker` with diarisation; `confidence` when the service gives it. */
export const sttWordSchema = z.looseObject({
  text: z.string(),
  start: z.number(),
  end: z.number(),
  confidence: z.number().nullish(),
  speaker: z.number().int().nullish(),
});
export type SttWord = z.infer<typeof sttWordSchema>;

/** One entry of `channels` (multichannel; wire-notes §4.1 [I]). */
export const sttChannelSchema = z.looseObject({
  channel_index: z.number().int().optional(),
  channel: z.number().int().optional(),
  text: z.string().optional(),
  words: z.array(sttWordSchema).optional(),
  duration: z.number().optional(),
});
export type SttChannel = z.infer<typeof sttChannelSchema>;

/** The "Speech-to-text result" of `POST /v1/stt`. */
export const sttResultSchema = z.looseObject({
  text: z.string(),
  language: z.string().nullish(),
  duration: z.number().optional(),
  words: z.array(sttWordSchema).optional(),
  channels: z.array(sttChannelSchema).optional(),
});
export type SttResult = z.infer<typeof sttResultSchema>;

/**
 * `POST /v1/stt` form fields other than `file` / `url` (wire-notes §4.1). Booleans go as the
 * strings "true"/"false"; `keyterm` repeats.
 */
export interface SttRequestFields {
  /** Only for raw audio (`pcm`, `mulaw`, `alaw`). */
  audio_format?: string;
  /** Required for raw audio. */
  sample_rate?: number;
  language?: string;
  /** Inverse text normalisation; needs `language`. */
  format?: boolean;
  multichannel?: boolean;
  /** 2-8, raw multichannel only. */
  channels?: number;
  diarize?: boolean;
  filler_words?: boolean;
  keyterm?: string[];
}

/** Query of the WebSocket `/v1/stt` (spec table). */
export interface SttStreamQuery {
  sample_rate?: number;
  encoding?: SttEncoding;
  interim_results?: boolean;
  endpointing?: number;
  language?: string;
  model?: string;
  multichannel?: boolean;
  channels?: number;
  diarize?: boolean;
  keyterm?: string[];
  filler_words?: boolean;
  smart_turn?: number;
  smart_turn_timeout?: number;
  vad_threshold?: number;
}

// Server -> client.
export const sttCreatedSchema = z.looseObject({ type: z.literal('transcript.created') });

/**
 * `is_final=false`: interim; `is_final` without `speech_final`: a chunk final; both: the
 * utterance's final. `end_of_turn_confidence` with Smart Turn; `channel_index` when multichannel.
 */
export const sttPartialSchema = z.looseObject({
  type: z.literal('transcript.partial'),
  text: z.string(),
  words: z.array(sttWordSchema).optional(),
  is_final: z.boolean().optional(),
  speech_final: z.boolean().optional(),
  start: z.number().optional(),
  duration: z.number().optional(),
  end_of_turn_confidence: z.number().nullish(),
  channel_index: z.number().int().nullish(),
  channel: z.number().int().nullish(),
  speaker: z.number().int().nullish(),
});
/** After `audio.done`: the remainder not already final (usually empty), one per channel. */
export const sttDoneSchema = z.looseObject({
  type: z.literal('transcript.done'),
  text: z.string().optional(),
  words: z.array(sttWordSchema).optional(),
  duration: z.number(),
  channel_index: z.number().int().nullish(),
  channel: z.number().int().nullish(),
});
export const sttErrorSchema = z.looseObject({
  type: z.literal('error'),
  message: z.string().optional(),
  error: z.unknown().optional(),
  code: z.union([z.string(), z.number()]).nullish(),
});
export type SttCreated = z.infer<typeof sttCreatedSchema>;
export type SttPartial = z.infer<typeof sttPartialSchema>;
export type SttDone = z.infer<typeof sttDoneSchema>;
export type SttError = z.infer<typeof sttErrorSchema>;
export type SttServerMessage = SttCreated | SttPartial | SttDone | SttError;

export const parseSttServerMessage: WsMessageParser<SttServerMessage> = wsMessageParser<SttServerMessage>({
  'transcript.created': sttCreatedSchema,
  'transcript.partial': sttPartialSchema,
  'transcript.done': sttDoneSchema,
  error: sttErrorSchema,
});

// Client -> server (besides binary audio frames).
export const sttFinalizeSchema = z.looseObject({ type: z.enum(['finalize', 'Finalize']), channel: z.number().int().min(0).optional() });
export const sttAudioDoneSchema = z.looseObject({ type: z.literal('audio.done') });
export type SttFinalize = z.infer<typeof sttFinalizeSchema>;
export type SttAudioDone = z.infer<typeof sttAudioDoneSchema>;
export type SttClientMessage = SttFinalize | SttAudioDone;

export const parseSttClientMessage: WsMessageParser<SttClientMessage> = wsMessageParser<SttClientMessage>({
  finalize: sttFinalizeSchema,
  Finalize: sttFinalizeSchema,
  'audio.done': sttAudioDoneSchema,
});

/** The channel a partial, a done or a `channels` entry belongs to: `channel_index`, else `channel`, else 0. */
export function sttChannelOf(message: { channel_index?: number | null; channel?: number | null }): number {
  return message.channel_index ?? message.channel ?? 0;
}

/** Which of the three states a partial is in (spec "Streaming speech-to-text messages"). */
export function sttPartialState(message: Pick<SttPartial, 'is_final' | 'speech_final'>): 'interim' | 'chunk_final' | 'utterance_final' {
  if (!message.is_final) return 'interim';
  return message.speech_final ? 'utterance_final' : 'chunk_final';
}

/**
 * Why a streaming query breaks a rule of the spec's table, or null: ranges, `smart_turn_timeout`
 * only with `smart_turn`, `multichannel` with 2-8 `channels` and not with opus, key term limits.
 * The client refuses such a query before connecting; the Transcription playground shows it.
 */
export function sttStreamQueryProblem(q: SttStreamQuery): string | null {
  const range = (name: string, v: number | undefined, min: number, max: number, integer = false): string | null =>
    v === undefined || (v >= min && v <= max && (!integer || Number.isInteger(v))) ? null : `${name} must be ${integer ? 'a whole number ' : ''}from ${min} to ${max} (got ${v}).`;
  if (q.sample_rate !== undefined && !(STT_SAMPLE_RATES as readonly number[]).includes(q.sample_rate)) return `sample_rate must be one of ${STT_SAMPLE_RATES.join(', ')} (got ${q.sample_rate}).`;
  if (q.encoding !== undefined && !(STT_ENCODINGS as readonly string[]).includes(q.encoding)) return `encoding must be one of ${STT_ENCODINGS.join(', ')} (got ${String(q.encoding)}).`;
  if (q.model !== undefined && !(STT_MODELS as readonly string[]).includes(q.model)) return `model must be one of ${STT_MODELS.join(', ')} (got ${q.model}).`;
  const problem =
    range('endpointing', q.endpointing, STT_LIMITS.endpointingMin, STT_LIMITS.endpointingMax, true) ??
    range('smart_turn', q.smart_turn, STT_LIMITS.smartTurnMin, STT_LIMITS.smartTurnMax) ??
    range('smart_turn_timeout', q.smart_turn_timeout, STT_LIMITS.smartTurnTimeoutMin, STT_LIMITS.smartTurnTimeoutMax, true) ??
    range('vad_threshold', q.vad_threshold, 0, 1);
  if (problem) return problem;
  if (q.smart_turn_timeout !== undefined && q.smart_turn === undefined) return 'smart_turn_timeout needs smart_turn.';
  if (q.multichannel) {
    if (q.encoding === 'opus') return 'multichannel is not available with opus (one mono packet per frame).';
    if (q.channels === undefined) return 'multichannel needs channels (2 to 8).';
  }
  const channels = range('channels', q.multichannel ? q.channels : undefined, STT_LIMITS.channelsMin, STT_LIMITS.channelsMax, true);
  if (channels) return channels;
  const terms = q.keyterm ?? [];
  if (terms.length > STT_LIMITS.keytermsMax) return `At most ${STT_LIMITS.keytermsMax} key terms (got ${terms.length}).`;
  const long = terms.find((t) => t.length > STT_LIMITS.keytermCharsMax);
  if (long !== undefined) return `A key term may have at most ${STT_LIMITS.keytermCharsMax} characters ("${long.slice(0, 20)}…" has ${long.length}).`;
  return null;
}

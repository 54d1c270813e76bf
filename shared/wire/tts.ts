/**
 * Wire shapes of text to speech (spec/service.md "Voice - text to speech", "Text-to-speech
 * result", "Streaming text-to-speech messages", Limits; wire-notes §3). Shared by the client
 * (main/api/tts.ts), the sandbox (main/sandbox/tts) and the Speech playground, so every limit is
 * written once. Schemas are loose: unknown fields pass through (wire-notes rule 2).
 */
import { z } from 'zod';
import { wsMessageParser, type WsMessageParser } from './ws-message';

/** `mulaw` and its alias `ulaw` are the same codec. */
export const TTS_CODECS = ['mp3', 'wav', 'pcm', 'mulaw', 'ulaw', 'alaw'] as const;
export type TtsCodec = (typeof TTS_CODECS)[number];

export const TTS_SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000] as const;
export const TTS_BIT_RATES = [32000, 64000, 96000, 128000, 192000] as const;

/** The Content-Type of each codec's audio (wire-notes §3.1). */
export const TTS_CONTENT_TYPES: Readonly<Record<TtsCodec, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  mulaw: 'audio/basic',
  ulaw: 'audio/basic',
  alaw: 'audio/alaw',
};

export const TTS_LANGUAGES = ['auto', 'en', 'ar-EG', 'ar-SA', 'ar-AE', 'bn', 'zh', 'fr', 'de', 'hi', 'id', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'ru', 'es-MX', 'es-ES', 'tr', 'vi'] as const;

export const TTS_INLINE_TAGS = ['pause', 'long-pause', 'hum-tune', 'laugh', 'chuckle', 'giggle', 'cry', 'tsk', 'tongue-click', 'lip-smack', 'breath', 'inhale', 'exhale', 'sigh'] as const;
export const TTS_WRAPPING_TAGS = ['soft', 'whisper', 'loud', 'build-intensity', 'decrease-intensity', 'higher-pitch', 'lower-pitch', 'slow', 'fast', 'sing-song', 'singing', 'emphasis'] as const;

export const TTS_LIMITS = {
  maxTextChars: 60_000,
  /** Each streaming `text.delta`. */
  maxDeltaChars: 60_000,
  speedMin: 0.7,
  speedMax: 1.5,
  speedDefault: 1.0,
  sampleRateDefault: 24_000,
  bitRateDefault: 128_000,
  codecDefault: 'mp3' as TtsCodec,
  voiceDefault: 'eve',
} as const;

export interface TtsOutputFormat {
  codec?: TtsCodec;
  sample_rate?: number;
  /** mp3 only. */
  bit_rate?: number;
}

/** `POST /v1/tts` body (wire-notes §3.1). */
export interface TtsRequest {
  text: string;
  /** Required by the service (400 without it). */
  language: string;
  voice_id?: string;
  output_format?: TtsOutputFormat;
  speed?: number;
  optimize_streaming_latency?: number;
  text_normalization?: boolean;
  with_timestamps?: boolean;
  /** A pronunciation list one client passes; kept opaque. */
  replace?: unknown;
}

/** Per-character timings: `graph_times[i]` is `[start, end]` in seconds of `graph_chars[i]`. */
export const audioTimestampsSchema = z.looseObject({
  graph_chars: z.array(z.string()),
  graph_times: z.array(z.array(z.number())),
});
export type AudioTimestamps = z.infer<typeof audioTimestampsSchema>;

/** The JSON "Text-to-speech result" (base64 `audio`). */
export const ttsResultSchema = z.looseObject({
  audio: z.string(),
  content_type: z.string().optional(),
  duration: z.number().optional(),
  audio_timestamps: audioTimestampsSchema.nullish(),
});
export type TtsResult = z.infer<typeof ttsResultSchema>;

/** A built-in voice (`GET /v1/tts/voices[/{id}]`). */
export const builtInVoiceSchema = z.looseObject({
  voice_id: z.string(),
  name: z.string().optional(),
  language: z.string().optional(),
});
export type BuiltInVoice = z.infer<typeof builtInVoiceSchema>;
export const builtInVoiceListSchema = z.looseObject({ voices: z.array(builtInVoiceSchema) });
export type BuiltInVoiceList = z.infer<typeof builtInVoiceListSchema>;

/** Query of the WebSocket `/v1/tts` (spec table; `language` required). */
export interface TtsStreamQuery {
  language: string;
  voice?: string;
  codec?: TtsCodec;
  sample_rate?: number;
  bit_rate?: number;
  optimize_streaming_latency?: number;
  speed?: number;
  text_normalization?: boolean;
  with_timestamps?: boolean;
}

// Client -> server.
export const ttsTextDeltaSchema = z.looseObject({ type: z.literal('text.delta'), delta: z.string() });
export const ttsTextDoneSchema = z.looseObject({ type: z.literal('text.done') });
export type TtsTextDelta = z.infer<typeof ttsTextDeltaSchema>;
export type TtsTextDone = z.infer<typeof ttsTextDoneSchema>;
export type TtsClientMessage = TtsTextDelta | TtsTextDone;

// Server -> client.
export const ttsAudioDeltaSchema = z.looseObject({
  type: z.literal('audio.delta'),
  /** Base64 audio in the chosen codec and sample rate. */
  delta: z.string(),
  /** With `with_timestamps`: the characters of this chunk and their times. */
  audio_timestamps: audioTimestampsSchema.nullish(),
  /** Seconds of audio in this chunk (with timestamps). */
  audio_duration: z.number().nullish(),
});
export const ttsAudioDoneSchema = z.looseObject({ type: z.literal('audio.done'), trace_id: z.string().nullish() });
export const ttsErrorSchema = z.looseObject({
  type: z.literal('error'),
  message: z.string().optional(),
  error: z.unknown().optional(),
  code: z.union([z.string(), z.number()]).nullish(),
});
export type TtsAudioDelta = z.infer<typeof ttsAudioDeltaSchema>;
export type TtsAudioDone = z.infer<typeof ttsAudioDoneSchema>;
export type TtsError = z.infer<typeof ttsErrorSchema>;
export type TtsServerMessage = TtsAudioDelta | TtsAudioDone | TtsError;

export const parseTtsServerMessage: WsMessageParser<TtsServerMessage> = wsMessageParser<TtsServerMessage>({
  'audio.delta': ttsAudioDeltaSchema,
  'audio.done': ttsAudioDoneSchema,
  error: ttsErrorSchema,
});

export const parseTtsClientMessage: WsMessageParser<TtsClientMessage> = wsMessageParser<TtsClientMessage>({
  'text.delta': ttsTextDeltaSchema,
  'text.done': ttsTextDoneSchema,
});

/** The codec a Content-Type names (`audio/mpeg` -> mp3), or null. */
export function codecOfContentType(contentType: string | null | undefined): TtsCodec | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'audio/mpeg' || type === 'audio/mp3') return 'mp3';
  if (type === 'audio/wav' || type === 'audio/wave' || type === 'audio/x-wav') return 'wav';
  if (type === 'audio/pcm' || type === 'audio/l16') return 'pcm';
  if (type === 'audio/basic' || type === 'audio/mulaw' || type === 'audio/x-mulaw' || type === 'audio/pcmu') return 'mulaw';
  if (type === 'audio/alaw' || type === 'audio/x-alaw' || type === 'audio/pcma') return 'alaw';
  return null;
}

/**
 * Why a streaming query (or a REST request's equivalent fields) breaks a documented rule, or
 * null: `language` required, codec / sample rate / bit rate from their lists (bit rate for mp3
 * only), `speed` 0.7-1.5, `optimize_streaming_latency` 0-2. The client refuses it before sending.
 */
export function ttsQueryProblem(q: { language?: string; codec?: string; sample_rate?: number; bit_rate?: number; speed?: number; optimize_streaming_latency?: number }): string | null {
  if (!q.language || q.language.trim() === '') return 'language is required (a BCP-47 code such as en, or auto).';
  if (q.codec !== undefined && !(TTS_CODECS as readonly string[]).includes(q.codec)) return `codec must be one of ${TTS_CODECS.join(', ')} (got ${q.codec}).`;
  if (q.sample_rate !== undefined && !(TTS_SAMPLE_RATES as readonly number[]).includes(q.sample_rate)) return `sample_rate must be one of ${TTS_SAMPLE_RATES.join(', ')} (got ${q.sample_rate}).`;
  if (q.bit_rate !== undefined) {
    if ((q.codec ?? TTS_LIMITS.codecDefault) !== 'mp3') return 'bit_rate applies to mp3 only.';
    if (!(TTS_BIT_RATES as readonly number[]).includes(q.bit_rate)) return `bit_rate must be one of ${TTS_BIT_RATES.join(', ')} (got ${q.bit_rate}).`;
  }
  if (q.speed !== undefined && !(q.speed >= TTS_LIMITS.speedMin && q.speed <= TTS_LIMITS.speedMax)) return `speed must be from ${TTS_LIMITS.speedMin} to ${TTS_LIMITS.speedMax} (got ${q.speed}).`;
  if (q.optimize_streaming_latency !== undefined && ![0, 1, 2].includes(q.optimize_streaming_latency)) return `optimize_streaming_latency must be 0 or 1 (got ${q.optimize_streaming_latency}).`;
  return null;
}

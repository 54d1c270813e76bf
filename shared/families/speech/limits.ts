/**
 * The Speech playground's request, checked once for the page and for main: the spec's limits
 * (text ≤ 60,000 characters, speed 0.7–1.5, the sample and bit rates, the codecs) come from
 * shared/wire/tts.ts, and the cross-field rules from its `ttsQueryProblem()`, so the form, the
 * contract and the client refuse the same things with the same words.
 */
import { z } from 'zod';
import { TTS_BIT_RATES, TTS_CODECS, TTS_LANGUAGES, TTS_LIMITS, TTS_SAMPLE_RATES, ttsQueryProblem, type TtsCodec } from '../../wire/tts';

const oneOf = <T extends number>(values: readonly T[], what: string) =>
  z.number().refine((v): v is T => (values as readonly number[]).includes(v), { message: `${what} must be one of ${values.join(', ')}` });

export const SpeechFieldsSchema = z
  .object({
    connectionId: z.string().min(1).max(64).optional(),
    text: z
      .string()
      .refine((t) => t.trim().length > 0, 'write the text to speak')
      .refine((t) => t.length <= TTS_LIMITS.maxTextChars, `the text is over ${TTS_LIMITS.maxTextChars.toLocaleString('en-US')} characters; shorten it or split it`),
    language: z.enum(TTS_LANGUAGES).default('en'),
    /** A built-in voice id (`eve`, …) or a custom voice id. */
    voice: z.string().trim().min(1, 'choose a voice').max(100).default(TTS_LIMITS.voiceDefault),
    codec: z.enum(TTS_CODECS).default(TTS_LIMITS.codecDefault),
    sampleRate: oneOf(TTS_SAMPLE_RATES, 'sample rate').default(TTS_LIMITS.sampleRateDefault),
    /** MP3 only. */
    bitRate: oneOf(TTS_BIT_RATES, 'bit rate').optional(),
    speed: z.number().min(TTS_LIMITS.speedMin, `speed is at least ${TTS_LIMITS.speedMin}`).max(TTS_LIMITS.speedMax, `speed is at most ${TTS_LIMITS.speedMax}`).default(TTS_LIMITS.speedDefault),
    withTimestamps: z.boolean().default(true),
    textNormalization: z.boolean().optional(),
    /** 1: a smaller first chunk (streaming). */
    optimizeStreamingLatency: z.union([z.literal(0), z.literal(1)]).optional(),
    /** Play through a native output device (the media process): an `audio.devices` id, or null for the default. Absent: the page plays it. */
    output: z.object({ device: z.string().min(1).max(300).nullable() }).strict().optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    const problem = speechFieldsProblem(f);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [] });
  });
export type SpeechFields = z.output<typeof SpeechFieldsSchema>;
export type SpeechFieldsInput = z.input<typeof SpeechFieldsSchema>;

/** What the wire's own rule (bit rate only with MP3, …) says of these fields, or null. */
export function speechFieldsProblem(f: { language: string; codec: TtsCodec; sampleRate: number; bitRate?: number; speed: number; optimizeStreamingLatency?: number }): string | null {
  return ttsQueryProblem({ language: f.language, codec: f.codec, sample_rate: f.sampleRate, bit_rate: f.bitRate, speed: f.speed, optimize_streaming_latency: f.optimizeStreamingLatency });
}

/** Characters left of the 60,000 (negative: over). */
export function charactersLeft(text: string): number {
  return TTS_LIMITS.maxTextChars - text.length;
}

/** The spec gives text to speech no price: the playground says so instead of showing a cost. */
export const SPEECH_PRICE = null;

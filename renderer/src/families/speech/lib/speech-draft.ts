/**
 * The Speech playground's form as a kept draft (composables/use-draft.ts): the text and every
 * setting, and the compare mode with its second voice. A draft an older build wrote is read field
 * by field: a value that no longer fits (a codec or rate the wire dropped, a speed out of range)
 * falls back to the default, the rest is kept.
 */
import { TTS_BIT_RATES, TTS_CODECS, TTS_LANGUAGES, TTS_LIMITS, TTS_SAMPLE_RATES, type TtsCodec } from '@shared/wire/tts';

export type TtsLanguage = (typeof TTS_LANGUAGES)[number];
import { savedString } from '../../../lib/draft-fields';

export type SpeechMode = 'rest' | 'stream';

export interface SpeechForm {
  text: string;
  language: TtsLanguage;
  voice: string;
  codec: TtsCodec;
  sampleRate: number;
  bitRate: number | null;
  speed: number;
  mode: SpeechMode;
  /** Two voices on the same text, side by side. */
  compare: boolean;
  /** The second voice of compare mode. */
  voiceB: string;
}

/** The second voice compare mode starts with: a built-in one that sounds unlike the default. */
export const COMPARE_VOICE_DEFAULT = 'rex';

export function defaultSpeechForm(): SpeechForm {
  return {
    text: '',
    language: 'en',
    voice: TTS_LIMITS.voiceDefault,
    codec: 'mp3',
    sampleRate: TTS_LIMITS.sampleRateDefault,
    bitRate: null,
    speed: TTS_LIMITS.speedDefault,
    mode: 'rest',
    compare: false,
    voiceB: COMPARE_VOICE_DEFAULT,
  };
}

const oneOf = <T>(list: readonly T[], value: unknown, fallback: T): T => (list.includes(value as T) ? (value as T) : fallback);

/** A kept form back (null: a fresh one). */
export function speechFormFromSaved(saved: Record<string, unknown> | null): SpeechForm {
  const base = defaultSpeechForm();
  if (!saved) return base;
  const speed = saved.speed;
  const voice = savedString(saved, 'voice').trim();
  const voiceB = savedString(saved, 'voiceB').trim();
  return {
    text: savedString(saved, 'text'),
    language: oneOf(TTS_LANGUAGES, saved.language, base.language),
    voice: voice && voice.length <= 100 ? voice : base.voice,
    codec: oneOf(TTS_CODECS, saved.codec, base.codec),
    sampleRate: oneOf(TTS_SAMPLE_RATES as readonly number[], saved.sampleRate, base.sampleRate),
    bitRate: oneOf(TTS_BIT_RATES as readonly number[], saved.bitRate, null as number | null),
    speed: typeof speed === 'number' && speed >= TTS_LIMITS.speedMin && speed <= TTS_LIMITS.speedMax ? speed : base.speed,
    mode: saved.mode === 'stream' ? 'stream' : 'rest',
    compare: saved.compare === true,
    voiceB: voiceB && voiceB.length <= 100 ? voiceB : base.voiceB,
  };
}

/**
 * How each voice sounds in eSpeak NG: a variant (timbre), a base pitch and a rate factor. Built-in
 * voices are fixed and audibly distinct (two female-timbre voices at different pitches, two male,
 * one neutral); a custom voice is derived from its reference clip's median pitch and its gender.
 */
import { BUILT_IN_VOICES } from '../catalogue';

export interface VoiceProfile {
  /** eSpeak variant appended to the language voice (`en-us+f3`). */
  variant: string;
  /** eSpeak pitch 0-99. */
  pitch: number;
  /** Multiplies the speaking rate. */
  rate: number;
}

const BUILT_IN_PROFILES: Record<string, VoiceProfile> = {
  eve: { variant: 'f3', pitch: 62, rate: 1 },
  ara: { variant: 'f2', pitch: 80, rate: 0.95 },
  rex: { variant: 'm3', pitch: 22, rate: 0.95 },
  sal: { variant: 'f5', pitch: 20, rate: 1.05 },
  leo: { variant: 'm7', pitch: 75, rate: 1 },
};

export const DEFAULT_VOICE = 'eve';

/** A built-in voice's profile by id (case-insensitive), or undefined. */
export function builtInProfile(id: string): VoiceProfile | undefined {
  const key = id.toLowerCase();
  return BUILT_IN_VOICES.some((v) => v.voice_id === key) ? BUILT_IN_PROFILES[key] : undefined;
}

/**
 * A custom voice's profile from its reference's median pitch (Hz, null when no voiced frame was
 * found) and gender: a male timbre below 165 Hz (or when the metadata says male), else female, and
 * eSpeak's pitch set so the voice's median lands near the reference's. Measured here (median F0 of
 * a sentence): m2 ~ 55 + 0.8 x pitch Hz, f4 ~ 50 + 2.4 x pitch Hz.
 */
export function customProfile(medianHz: number | null, gender: string | null): VoiceProfile {
  const hz = medianHz ?? (gender === 'male' ? 120 : 210);
  const female = gender === 'female' || (gender !== 'male' && hz >= 165);
  const raw = female ? (hz - 50) / 2.4 : (hz - 55) / 0.8;
  const pitch = Math.round(Math.min(99, Math.max(0, raw)));
  return { variant: female ? 'f4' : 'm2', pitch, rate: 1 };
}

/**
 * The service's built-in (first-party preset) voices: the ids text-to-speech, realtime and video
 * `reference_audios` accept (wire-notes §2 and §4: the documented core five). Custom voices are
 * not presets and are not listed here; their shapes and rules follow below.
 */
import { z } from 'zod';

export interface PresetVoice {
  id: string;
  name: string;
}

export const PRESET_VOICES: readonly PresetVoice[] = [
  { id: 'eve', name: 'Eve' },
  { id: 'ara', name: 'Ara' },
  { id: 'leo', name: 'Leo' },
  { id: 'rex', name: 'Rex' },
  { id: 'sal', name: 'Sal' },
];

/*
 * Custom voices (spec/service.md "Custom voice", "Voice - custom voices"; wire-notes §6.1) and the
 * built-in voice listing's list shape. Schemas are loose (unknown fields pass through); nullable
 * metadata may also be absent.
 */

export const VOICE_GENDERS = ['male', 'female', 'neutral'] as const;
export const VOICE_AGES = ['young', 'middle-aged', 'old'] as const;
export const VOICE_USE_CASES = ['conversational', 'narration', 'characters', 'educational', 'advertisement', 'social_media', 'entertainment'] as const;
export const VOICE_TONES = ['warm', 'casual', 'professional', 'friendly', 'authoritative', 'expressive', 'calm'] as const;

export const CUSTOM_VOICE_LIMITS = {
  /** Reference audio, seconds. */
  maxReferenceSeconds: 120,
  listLimitMin: 1,
  listLimitMax: 1000,
  listLimitDefault: 100,
} as const;

/** 8 lowercase letters or digits (the service's custom voice ids). */
export const CUSTOM_VOICE_ID = /^[a-z0-9]{8}$/;

/** The metadata fields a custom voice has, each settable at creation and by PATCH. */
export const VOICE_METADATA_FIELDS = ['name', 'description', 'gender', 'accent', 'age', 'language', 'use_case', 'tone'] as const;
export type VoiceMetadataField = (typeof VOICE_METADATA_FIELDS)[number];

export const customVoiceSchema = z.looseObject({
  voice_id: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  gender: z.string().nullish(),
  accent: z.string().nullish(),
  age: z.string().nullish(),
  language: z.string().nullish(),
  use_case: z.string().nullish(),
  tone: z.string().nullish(),
  /** RFC 3339. */
  created_at: z.string().nullish(),
});
export type CustomVoice = z.infer<typeof customVoiceSchema>;

/** `GET /v1/custom-voices`: one page; `pagination_token` null at the end. */
export const customVoiceListSchema = z.looseObject({
  voices: z.array(customVoiceSchema),
  pagination_token: z.string().nullish(),
});
export type CustomVoiceList = z.infer<typeof customVoiceListSchema>;

export const customVoiceDeletedSchema = z.looseObject({ deleted: z.boolean() });
export type CustomVoiceDeleted = z.infer<typeof customVoiceDeletedSchema>;

export interface CustomVoiceListQuery {
  limit?: number;
  pagination_token?: string;
}

/** The metadata form fields of `POST /v1/custom-voices` (sent before `file`). */
export interface CustomVoiceCreate {
  name?: string;
  description?: string;
  gender?: (typeof VOICE_GENDERS)[number];
  accent?: string;
  age?: (typeof VOICE_AGES)[number];
  language?: string;
  use_case?: (typeof VOICE_USE_CASES)[number];
  tone?: (typeof VOICE_TONES)[number];
}

/** `PATCH /v1/custom-voices/{id}`: any metadata field; null clears it. */
export type CustomVoicePatch = { [K in keyof CustomVoiceCreate]?: CustomVoiceCreate[K] | null };

const ENUMS: Partial<Record<VoiceMetadataField, readonly string[]>> = { gender: VOICE_GENDERS, age: VOICE_AGES, use_case: VOICE_USE_CASES, tone: VOICE_TONES };

/** The enum a metadata field takes, or null for free text. */
export function voiceFieldEnum(field: VoiceMetadataField): readonly string[] | null {
  return ENUMS[field] ?? null;
}

/**
 * The PATCH rules of wire-notes §6.1: at least one of the 8 metadata fields; `null` clears; an
 * empty string is refused; enums as listed; nothing else (audio cannot change). Returns the
 * sentence to show, or null when the patch is valid. Also used for a creation's fields (no null).
 */
export function voicePatchProblem(patch: Record<string, unknown>, creating = false): string | null {
  const keys = Object.keys(patch).filter((k) => patch[k] !== undefined);
  if (!creating && keys.length === 0) return `Change at least one of ${VOICE_METADATA_FIELDS.join(', ')}.`;
  for (const key of keys) {
    if (!(VOICE_METADATA_FIELDS as readonly string[]).includes(key)) {
      return key === 'file' || key === 'audio'
        ? 'The reference audio of a custom voice cannot be changed; create a new voice instead.'
        : `"${key}" is not a voice field; the fields are ${VOICE_METADATA_FIELDS.join(', ')}.`;
    }
    const value = patch[key];
    if (value === null) {
      if (creating) return `"${key}" cannot be null when creating a voice; leave it out instead.`;
      continue;
    }
    if (typeof value !== 'string') return `"${key}" must be a string${creating ? '' : ' or null'}.`;
    if (value.trim() === '') return `"${key}" cannot be empty${creating ? '' : '; use null to clear it'}.`;
    const allowed = voiceFieldEnum(key as VoiceMetadataField);
    if (allowed && !allowed.includes(value)) return `"${key}" must be one of ${allowed.join(', ')} (got "${value}").`;
  }
  return null;
}

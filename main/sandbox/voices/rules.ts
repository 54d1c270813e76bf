/**
 * Custom voice metadata (wire-notes §6.1): the enums, and the rules of create (form fields) and
 * PATCH (JSON): `null` clears a nullable field (description, accent, age), an empty string is
 * refused, at least one field, the audio cannot change, unknown fields are named.
 */
export const VOICE_GENDERS = ['male', 'female', 'neutral'] as const;
export const VOICE_AGES = ['young', 'middle-aged', 'old'] as const;
export const VOICE_USE_CASES = ['conversational', 'narration', 'characters', 'educational', 'advertisement', 'social_media', 'entertainment'] as const;
export const VOICE_TONES = ['warm', 'casual', 'professional', 'friendly', 'authoritative', 'expressive', 'calm'] as const;

export interface VoiceMetadata {
  name: string;
  description: string | null;
  gender: string;
  accent: string | null;
  age: string | null;
  language: string;
  use_case: string;
  tone: string;
}

export const METADATA_FIELDS = ['name', 'description', 'gender', 'accent', 'age', 'language', 'use_case', 'tone'] as const;
const NULLABLE = new Set(['description', 'accent', 'age']);
const ENUMS: Record<string, readonly string[]> = { gender: VOICE_GENDERS, age: VOICE_AGES, use_case: VOICE_USE_CASES, tone: VOICE_TONES };
const MAX_LENGTH: Record<string, number> = { name: 100, description: 1000, accent: 100, language: 35 };
const BCP47 = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/** Defaults of the non-nullable fields a create may leave out (the resource always has them). */
export const CREATE_DEFAULTS = { gender: 'neutral', language: 'en', use_case: 'conversational', tone: 'friendly' } as const;

/** One field's value: null (cleared), a checked string, or a message. */
function checkField(field: string, value: unknown): { ok: string | null } | { error: string } {
  if (value === null) return NULLABLE.has(field) ? { ok: null } : { error: `${field} cannot be cleared (null); give a value` };
  if (typeof value !== 'string') return { error: `${field} must be a string` };
  if (value.trim() === '') return { error: `${field} must not be empty${NULLABLE.has(field) ? ' (send null to clear it)' : ''}` };
  const allowed = ENUMS[field];
  if (allowed && !allowed.includes(value)) return { error: `${field} must be one of ${allowed.join(', ')}; got "${value.slice(0, 60)}"` };
  if (field === 'language' && !BCP47.test(value)) return { error: `language must be a BCP-47 code such as "en" or "pt-BR"; got "${value.slice(0, 60)}"` };
  const max = MAX_LENGTH[field];
  if (max && value.length > max) return { error: `${field} is ${value.length} characters; the limit is ${max}` };
  return { ok: value };
}

/** The create form's metadata, or the messages of every broken rule. */
export function checkCreateFields(fields: Record<string, string>): { metadata: VoiceMetadata } | { errors: string[] } {
  const errors: string[] = [];
  for (const key of Object.keys(fields)) if (!(METADATA_FIELDS as readonly string[]).includes(key)) errors.push(`Unknown form field ${key}; a custom voice takes ${METADATA_FIELDS.join(', ')} and the file`);
  if (fields.name === undefined) errors.push('name is required: a name for the voice');
  const metadata: Record<string, string | null> = { description: null, accent: null, age: null, ...CREATE_DEFAULTS };
  for (const field of METADATA_FIELDS) {
    if (fields[field] === undefined) continue;
    const r = checkField(field, fields[field]);
    if ('error' in r) errors.push(r.error);
    else metadata[field] = r.ok;
  }
  return errors.length > 0 ? { errors } : { metadata: metadata as unknown as VoiceMetadata };
}

/** A PATCH body: the fields to change. */
export function checkPatch(body: unknown): { changes: Partial<VoiceMetadata> } | { errors: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { errors: ['The body must be a JSON object of the metadata fields to change'] };
  const b = body as Record<string, unknown>;
  const errors: string[] = [];
  const changes: Record<string, string | null> = {};
  for (const key of Object.keys(b)) {
    if (key === 'file' || key === 'audio') errors.push('The reference audio of a custom voice cannot change; create a new voice for a new clip');
    else if (!(METADATA_FIELDS as readonly string[]).includes(key)) errors.push(`Unknown field ${key}; a custom voice's updatable fields are ${METADATA_FIELDS.join(', ')}`);
    else {
      const r = checkField(key, b[key]);
      if ('error' in r) errors.push(r.error);
      else changes[key] = r.ok;
    }
  }
  if (Object.keys(b).length === 0) errors.push(`Give at least one field to change (${METADATA_FIELDS.join(', ')})`);
  return errors.length > 0 ? { errors } : { changes: changes as Partial<VoiceMetadata> };
}

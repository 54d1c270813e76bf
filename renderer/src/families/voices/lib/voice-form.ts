/**
 * The metadata form of a voice, as plain strings (what the inputs hold), and what it sends: the
 * fields of a new voice (empty ones left out), or a PATCH of only the fields that changed (an
 * emptied field is `null`, which clears it: wire-notes 6.1 refuses empty strings). The sentence
 * for a broken rule is the shared one main and the service check too.
 */
import { VOICE_METADATA_FIELDS, voicePatchProblem, type CustomVoice, type VoiceMetadataField } from '@shared/wire/voices';

export type VoiceFormState = Record<VoiceMetadataField, string>;

export function emptyForm(): VoiceFormState {
  return Object.fromEntries(VOICE_METADATA_FIELDS.map((f) => [f, ''])) as VoiceFormState;
}

export function formOf(voice: CustomVoice): VoiceFormState {
  return Object.fromEntries(VOICE_METADATA_FIELDS.map((f) => [f, (voice[f] as string | null | undefined) ?? ''])) as VoiceFormState;
}

/** A new voice's fields: the filled ones, trimmed. */
export function metadataOf(form: VoiceFormState): { name: string } & Partial<Record<VoiceMetadataField, string>> {
  const out: Partial<Record<VoiceMetadataField, string>> = {};
  for (const f of VOICE_METADATA_FIELDS) if (form[f].trim() !== '') out[f] = form[f].trim();
  return { ...out, name: out.name ?? '' };
}

/** The PATCH from `before` to `form`: changed fields only; an emptied one is null. */
export function patchOf(before: VoiceFormState, form: VoiceFormState): Partial<Record<VoiceMetadataField, string | null>> {
  const out: Partial<Record<VoiceMetadataField, string | null>> = {};
  for (const f of VOICE_METADATA_FIELDS) {
    const now = form[f].trim();
    if (now === before[f].trim()) continue;
    out[f] = now === '' ? null : now;
  }
  return out;
}

/** Why the form cannot be sent, or null. */
export function formProblem(form: VoiceFormState, before: VoiceFormState | null): string | null {
  if (!before) {
    const metadata = metadataOf(form);
    if (!metadata.name) return 'A voice needs a name.';
    return voicePatchProblem(metadata, true);
  }
  return voicePatchProblem(patchOf(before, form));
}

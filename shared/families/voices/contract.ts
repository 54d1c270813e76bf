/**
 * The Voices family (spec "Voice - custom voices", wire-notes §6.1): the service's built-in voices
 * and the team's custom voices, paginated; create (clone) from a file the user gave (a picked or
 * dropped file, or a microphone recording the page staged through `userFiles.upload`: bytes never
 * travel as base64 in JSON); PATCH with the 6.1 rules; delete; the reference clip and a spoken
 * preview, each kept as a blob the page loads by URL (`media.url`). Create, update and delete are
 * recorded in History.
 */
import { z } from 'zod';
import { call, event } from '../../contract/define';
import { ConnectionIdSchema } from '../../contract/text';
import { FileRefIdSchema } from '../../contract/user-files';
import { CUSTOM_VOICE_LIMITS, voicePatchProblem, type CustomVoice } from '../../wire/voices';

export type { CustomVoice } from '../../wire/voices';

/** A voice id: a built-in name (`eve`) or a custom voice's 8 letters and digits. */
export const VoiceIdSchema = z
  .string()
  .trim()
  .min(1, 'enter a voice id')
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/, 'a voice id is letters, digits, dashes and underscores');

/** Text fields are checked by the spec's own rules (voicePatchProblem): one sentence, the same in main and page. */
const field = z.string().max(1000, 'at most 1,000 characters');

/** The metadata of a new voice: `name` required by the service; enums per wire-notes 6.1. */
export const VoiceMetadataSchema = z
  .object({
    name: z.string().trim().min(1, 'a voice needs a name').max(200),
    description: field.optional(),
    gender: field.optional(),
    accent: field.optional(),
    age: field.optional(),
    language: field.optional(),
    use_case: field.optional(),
    tone: field.optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const problem = voicePatchProblem(m, true);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type VoiceMetadataInput = z.input<typeof VoiceMetadataSchema>;

/** A PATCH: any of the 8 fields; null clears; '' refused; at least one (wire-notes 6.1). */
export const VoicePatchSchema = z
  .object({
    name: field.nullable().optional(),
    description: field.nullable().optional(),
    gender: field.nullable().optional(),
    accent: field.nullable().optional(),
    age: field.nullable().optional(),
    language: field.nullable().optional(),
    use_case: field.nullable().optional(),
    tone: field.nullable().optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const problem = voicePatchProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type VoicePatchInput = z.input<typeof VoicePatchSchema>;

const connection = { connectionId: ConnectionIdSchema.optional() };

export const VoiceListSchema = z
  .object({
    ...connection,
    limit: z.number().int().min(CUSTOM_VOICE_LIMITS.listLimitMin).max(CUSTOM_VOICE_LIMITS.listLimitMax).default(20),
    paginationToken: z.string().max(500).optional(),
  })
  .strict();
export type VoiceListInput = z.input<typeof VoiceListSchema>;

export const VoiceRefSchema = z.object({ ...connection, id: VoiceIdSchema }).strict();

export const VoiceCreateSchema = z
  .object({
    ...connection,
    /** The reference clip: a picked or dropped file, or a recording staged by the page. */
    ref: FileRefIdSchema,
    metadata: VoiceMetadataSchema,
  })
  .strict();
export type VoiceCreateInput = z.input<typeof VoiceCreateSchema>;

export const VoiceUpdateSchema = z.object({ ...connection, id: VoiceIdSchema, patch: VoicePatchSchema }).strict();
export type VoiceUpdateInput = z.input<typeof VoiceUpdateSchema>;

/** Longest preview text: a sentence or two, so a preview stays cheap. */
export const PREVIEW_MAX_CHARS = 500;

export const VoicePreviewSchema = z
  .object({
    ...connection,
    voiceId: VoiceIdSchema,
    text: z.string().trim().min(1, 'enter something for the voice to say').max(PREVIEW_MAX_CHARS, `a preview is at most ${PREVIEW_MAX_CHARS} characters`),
    /** BCP-47; the service requires one. */
    language: z.string().trim().min(1).max(35).default('en'),
  })
  .strict();
export type VoicePreviewInput = z.input<typeof VoicePreviewSchema>;

/** A built-in voice as `GET /v1/tts/voices` lists it. */
export interface BuiltInVoiceInfo {
  voiceId: string;
  name: string;
  language: string | null;
}

/** One page of custom voices; `nextToken` null at the end. */
export interface CustomVoicePage {
  voices: CustomVoice[];
  nextToken: string | null;
}

/** A create or update: the voice as the service answered and its run in History. */
export interface VoiceChange {
  voice: CustomVoice;
  runId: string;
}

/** Audio main keeps as a blob: the page loads it with `media.url({ hash })`. */
export interface VoiceAudioBlob {
  hash: string;
  mime: string;
  size: number;
  /** Seconds, when known (a preview's `duration`). */
  duration: number | null;
}

/** What `changed` says: which voice, on which connection, and what happened to it. */
export interface VoiceChanged {
  connectionId: string;
  voiceId: string;
  change: 'created' | 'updated' | 'deleted';
}

export const voicesContract = {
  /** `GET /v1/tts/voices`. */
  builtIn: call<BuiltInVoiceInfo[]>()(z.object(connection).strict().optional()),
  /** `GET /v1/custom-voices`: one page (oldest first). */
  list: call<CustomVoicePage>()(VoiceListSchema),
  get: call<CustomVoice>()(VoiceRefSchema),
  /** `POST /v1/custom-voices` (multipart, the clip last); a WAV over 120 s is refused before sending. */
  create: call<VoiceChange>()(VoiceCreateSchema),
  /** `PATCH /v1/custom-voices/{id}`. */
  update: call<VoiceChange>()(VoiceUpdateSchema),
  /** `DELETE /v1/custom-voices/{id}`; the reference blob kept here is let go. */
  remove: call<{ deleted: boolean; runId: string }>()(VoiceRefSchema),
  /** The reference clip (`GET …/{id}/audio`), fetched once and kept as a blob. */
  referenceAudio: call<VoiceAudioBlob>()(VoiceRefSchema),
  /** Speech in that voice (`POST /v1/tts`, WAV) kept as a blob: the newest preview per voice. */
  preview: call<VoiceAudioBlob>()(VoicePreviewSchema),
  /** A custom voice was cloned, edited or deleted (any window): lists of voices reload. */
  changed: event<VoiceChanged>(),
};

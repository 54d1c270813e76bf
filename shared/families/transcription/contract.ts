/**
 * The Transcription family, REST part: `transcribe` sends one recording to `POST /v1/stt` (a file
 * the user dropped or picked, an uploaded Files id, or a URL) with every form field of wire-notes
 * §4.1 checked against the spec's limits here, before anything is read or sent. One stream per
 * request, so the page knows the run (and can cancel) at once. The audio sent from a user's file
 * is kept in the gallery (kind `audio`), so History plays it offline; `ofRun` rebuilds a result.
 * The live microphone is a live session (main/live), not this contract.
 */
import { z } from 'zod';
import { call, stream } from '../../contract/define';
import type { GalleryItem } from '../../contract/gallery';
import { ConnectionIdSchema } from '../../contract/text';
import { FileRefIdSchema } from '../../contract/user-files';
import { STT_LIMITS, STT_SAMPLE_RATES, type SttResult } from '../../wire/stt';
import { FileIdSchema } from '../files/contract';

/** Raw audio (no header): the service needs its format and sample rate. */
export const STT_RAW_FORMATS = ['pcm', 'mulaw', 'alaw'] as const;
export type SttRawFormat = (typeof STT_RAW_FORMATS)[number];

/** What the service decodes from a container (said in every "unsupported audio" message). */
export const STT_CONTAINER_FORMATS = 'WAV, MP3, FLAC or Ogg/Opus';

/** MIME types of those containers, as browsers and systems name them (the drop router's "Transcribe"). */
export const STT_CONTAINER_MIME_TYPES = ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'audio/mpeg', 'audio/mp3', 'audio/flac', 'audio/x-flac', 'audio/ogg', 'audio/opus'] as const;

/** A BCP-47 tag such as en or pt-BR (the sandbox's rule, main/sandbox/stt/params.ts). */
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** The audio: a file the user gave (`ref`), a Files id (sent as its public URL), or a URL. */
export const TranscriptionSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ref'), ref: FileRefIdSchema }).strict(),
  z.object({ kind: z.literal('file'), fileId: FileIdSchema }).strict(),
  z
    .object({ kind: z.literal('url'), url: z.string().trim().min(1, 'enter a URL').max(8192).regex(/^https?:\/\//, 'a URL starts with https:// or http://') })
    .strict(),
]);
export type TranscriptionSource = z.infer<typeof TranscriptionSourceSchema>;

export const TranscribeSchema = z
  .object({
    connectionId: ConnectionIdSchema.optional(),
    source: TranscriptionSourceSchema,
    language: z.string().trim().max(35, 'a language tag is at most 35 characters').regex(LANGUAGE, 'a BCP-47 language tag such as en or pt-BR').optional(),
    /** Inverse text normalisation ("twenty five" → 25); needs a language. */
    format: z.boolean().optional(),
    diarize: z.boolean().optional(),
    fillerWords: z.boolean().optional(),
    multichannel: z.boolean().optional(),
    /** Raw multichannel audio only: how many channels are interleaved. */
    channels: z.number().int('a whole number').min(STT_LIMITS.channelsMin, `at least ${STT_LIMITS.channelsMin} channels`).max(STT_LIMITS.channelsMax, `at most ${STT_LIMITS.channelsMax} channels`).optional(),
    keyterms: z
      .array(z.string().trim().min(1, 'an empty key term').max(STT_LIMITS.keytermCharsMax, `a key term is at most ${STT_LIMITS.keytermCharsMax} characters`))
      .max(STT_LIMITS.keytermsMax, `at most ${STT_LIMITS.keytermsMax} key terms`)
      .optional(),
    /** Only for raw audio; a container file says its own format. */
    audioFormat: z.enum(STT_RAW_FORMATS).optional(),
    sampleRate: z
      .number()
      .refine((r) => (STT_SAMPLE_RATES as readonly number[]).includes(r), `a sample rate is one of ${STT_SAMPLE_RATES.join(', ')}`)
      .optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const problem = (path: string, message: string): void => ctx.addIssue({ code: 'custom', path: [path], message });
    if (t.audioFormat !== undefined && t.sampleRate === undefined) problem('sampleRate', `raw ${t.audioFormat} audio has no header: give its sample rate`);
    if (t.audioFormat === undefined && t.sampleRate !== undefined) problem('sampleRate', 'a sample rate is only for raw audio (choose its format)');
    if (t.channels !== undefined && t.audioFormat === undefined) problem('channels', 'channels is only for raw audio; a container file says how many it has');
    if (t.audioFormat !== undefined && t.multichannel && t.channels === undefined) problem('channels', `multichannel raw audio needs its channels (${STT_LIMITS.channelsMin} to ${STT_LIMITS.channelsMax})`);
    if (t.format && !t.language) problem('format', 'formatting (inverse text normalisation) needs a language');
  });
export type TranscribeInput = z.input<typeof TranscribeSchema>;

/** What a transcription sends the page while it lasts. */
export type TranscribeChunk = { type: 'started'; runId: string; filename: string } | { type: 'progress'; sent: number; total: number };

export interface TranscribeResult {
  runId: string;
  /** What the user sent: the file's name, the Files id, or the URL. */
  filename: string;
  /** The service's answer as it came (words, channels, duration). */
  result: SttResult;
  /** The audio sent, kept in the gallery (a Files id's or a URL's fetched by main); null when it could not be kept. */
  audio: GalleryItem | null;
  /** Why the audio is not kept (too large, could not be fetched, a full disk), when it is not. */
  audioProblem?: string | null;
  durationMs: number;
}

export const transcriptionContract = {
  transcribe: stream<TranscribeChunk, TranscribeResult>()(TranscribeSchema),
  /** A recorded run's result again (History's entry, a reload during a request); null when not a finished transcription. */
  ofRun: call<TranscribeResult | null>()(z.object({ runId: z.string().min(1).max(64) }).strict()),
};

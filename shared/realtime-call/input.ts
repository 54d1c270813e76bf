/**
 * What a realtime call starts from (`live.start {kind: 'realtime', input}`): how it authenticates,
 * the session it asks for (model, voice, instructions, turn detection, formats, tools), the
 * auto-responder's saved replies, where the microphone comes from and where the model is heard.
 * Checked in main with this schema before the call starts; the page builds it from its form.
 */
import { z } from 'zod';
import { ToolSpecSchema } from '../contract/tools';
import { FileRefIdSchema } from '../contract/user-files';
import { REALTIME_LIMITS, REALTIME_PCM_RATES, REALTIME_REASONING_EFFORTS } from '../wire/realtime';

export const REALTIME_CALL_KIND = 'realtime';

/** Frames of microphone audio to the service: 20 ms each (`input_audio_buffer.append`). */
export const REALTIME_FRAME_MS = 20;

/** One side's audio format: PCM16 at a listed rate, or G.711 (µ-law / A-law) at 8 kHz. */
export const RealtimeAudioFormatSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('audio/pcm'),
      rate: z.union(REALTIME_PCM_RATES.map((r) => z.literal(r)) as [z.ZodLiteral<number>, ...Array<z.ZodLiteral<number>>], { error: `audio/pcm rates are ${REALTIME_PCM_RATES.join(', ')}` }).default(24_000),
    })
    .strict(),
  z.object({ type: z.literal('audio/pcmu'), rate: z.literal(8000).default(8000) }).strict(),
  z.object({ type: z.literal('audio/pcma'), rate: z.literal(8000).default(8000) }).strict(),
]);
export type RealtimeAudioFormat = z.infer<typeof RealtimeAudioFormatSchema>;

/** Server VAD with its parameters (the spec's ranges); `null` in the input means push-to-talk (manual commits). */
export const RealtimeTurnDetectionSchema = z
  .object({
    type: z.literal('server_vad').default('server_vad'),
    threshold: z.number().min(REALTIME_LIMITS.thresholdMin).max(REALTIME_LIMITS.thresholdMax).optional(),
    prefix_padding_ms: z.number().int().min(0).max(REALTIME_LIMITS.prefixPaddingMsMax).optional(),
    silence_duration_ms: z.number().int().min(0).max(REALTIME_LIMITS.silenceDurationMsMax).optional(),
    idle_timeout_ms: z.number().int().min(0).nullable().optional(),
    create_response: z.boolean().optional(),
    interrupt_response: z.boolean().optional(),
  })
  .strict();
export type RealtimeTurnDetection = z.infer<typeof RealtimeTurnDetectionSchema>;

/**
 * The auto-responder's answer for one tool (run in main, so a call with no window still answers):
 * `output` sent as the function_call_output, after `latencyMs`; with `error` set the output is
 * that error (`{"error": …}`), as a tool that throws would give.
 */
export const RealtimeAutoReplySchema = z
  .object({
    output: z.string().max(200_000),
    latencyMs: z.number().int().min(0).max(60_000).optional(),
    error: z.string().max(10_000).nullable().optional(),
  })
  .strict();
export type RealtimeAutoReply = z.infer<typeof RealtimeAutoReplySchema>;
/** Saved replies by tool name. A tool without one waits for the window's manual answer. */
export const RealtimeAutoRepliesSchema = z.record(z.string().max(256), RealtimeAutoReplySchema);
export type RealtimeAutoReplies = z.infer<typeof RealtimeAutoRepliesSchema>;

export const RealtimeMicrophoneSchema = z.discriminatedUnion('kind', [
  /** The page's microphone sends 20 ms PCM16 frames on the snapshot's `mic` stream. */
  z.object({ kind: z.literal('page'), device: z.string().max(500).optional() }).strict(),
  /** A native device captured in the media process (the audio never passes through main or a page). */
  z.object({ kind: z.literal('native'), device: z.string().max(500).optional() }).strict(),
  /** A WAV file played as the microphone (`speed` × real time), for testing without a device. */
  z.object({ kind: z.literal('file'), ref: FileRefIdSchema, speed: z.number().min(0.5, 'speed is 0.5 to 20').max(20, 'speed is 0.5 to 20').default(1) }).strict(),
  /** No microphone: text turns only (or a SIP call, whose audio comes from the caller). */
  z.object({ kind: z.literal('none') }).strict(),
]);
export type RealtimeMicrophone = z.infer<typeof RealtimeMicrophoneSchema>;

export const RealtimeOutputSchema = z.discriminatedUnion('kind', [
  /** The page plays the model's audio from the snapshot's `playback` stream and reports its played position. */
  z.object({ kind: z.literal('page'), device: z.string().max(500).optional() }).strict(),
  /** Native playback in the media process (main/audio). */
  z.object({ kind: z.literal('native'), device: z.string().max(500).optional() }).strict(),
  /** Nowhere (a SIP call: the caller hears the model through the service). */
  z.object({ kind: z.literal('none') }).strict(),
]);
export type RealtimeOutput = z.infer<typeof RealtimeOutputSchema>;

export const RealtimeCallInputSchema = z
  .object({
    /** The connection profile; the active one when absent. */
    connectionId: z.string().max(200).optional(),
    /**
     * `key`: the connection's API key in the handshake. `client-secret`: main mints an ephemeral
     * secret (`POST /v1/realtime/client_secrets`, `clientSecretSeconds`) and connects with it as
     * the subprotocol; its expiry is in the snapshot.
     */
    auth: z.enum(['key', 'client-secret']).default('key'),
    clientSecretSeconds: z.number().int().min(1).max(REALTIME_LIMITS.clientSecretSecondsMax).optional(),
    model: z.string().min(1).max(200).optional(),
    reasoningEffort: z.enum(REALTIME_REASONING_EFFORTS).optional(),
    voice: z.string().min(1).max(200).optional(),
    instructions: z.string().max(100_000).optional(),
    /** Server VAD (absent: the service's defaults), or `null` for push-to-talk (commit by hand). */
    turnDetection: RealtimeTurnDetectionSchema.nullable().optional(),
    formats: z
      .object({ input: RealtimeAudioFormatSchema.optional(), output: RealtimeAudioFormatSchema.optional() })
      .strict()
      .default({}),
    /** Transcribe the user's audio (`audio.input.transcription`), with this model. */
    inputTranscription: z.object({ model: z.string().min(1).max(200) }).strict().nullable().optional(),
    tools: z.array(ToolSpecSchema).max(128).default([]),
    toolChoice: z.union([z.enum(['auto', 'none', 'required']), z.object({ name: z.string().max(256) }).strict()]).optional(),
    autoReplies: RealtimeAutoRepliesSchema.default({}),
    /** Join a SIP call (`call_id`): API key only (the spec refuses a client secret with it). */
    callId: z.string().min(1).max(200).optional(),
    microphone: RealtimeMicrophoneSchema.default({ kind: 'page' }),
    output: RealtimeOutputSchema.default({ kind: 'page' }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.callId && v.auth === 'client-secret') ctx.addIssue({ code: 'custom', path: ['auth'], message: 'A SIP call (callId) is joined with the API key only, not a client secret.' });
    if (v.clientSecretSeconds !== undefined && v.auth !== 'client-secret') ctx.addIssue({ code: 'custom', path: ['clientSecretSeconds'], message: 'clientSecretSeconds applies only with auth "client-secret".' });
  });
export type RealtimeCallInput = z.infer<typeof RealtimeCallInputSchema>;
/** The input as a page writes it (defaults not yet applied). */
export type RealtimeCallInputDraft = z.input<typeof RealtimeCallInputSchema>;

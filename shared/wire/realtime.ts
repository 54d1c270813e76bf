/**
 * Wire shapes of the realtime voice WebSocket `/v1/realtime` (spec/service.md "Voice - realtime
 * and SIP", "Realtime WebSocket messages"; wire-notes §2). Complete on names: every client and
 * server event the spec and wire-notes list has a schema, so a known type is validated and any
 * other type is `unknown` (kept and shown). Lenient on payloads: objects are loose, and only the
 * fields a client acts on are typed (a delta's text, an item id, a time); the rest pass through.
 * Both the beta and GA spellings wire-notes lists are accepted where they differ.
 */
import { z } from 'zod';
import { wsMessageParser, type WsMessageParser } from './ws-message';

export const REALTIME_MODELS = ['svc-voice-latest', 'svc-voice-think-fast-2.0', 'svc-voice-think-fast-1.0', 'svc-voice-fast-1.0'] as const;
export const REALTIME_REASONING_EFFORTS = ['high', 'none'] as const;
export const REALTIME_PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
export const REALTIME_AUDIO_FORMATS = ['audio/pcm', 'audio/pcmu', 'audio/pcma', 'audio/opus'] as const;
/** The subprotocol prefix a client secret is offered with (spec "Authentication" 3). */
export const CLIENT_SECRET_PROTOCOL_PREFIX = 'svc-client-secret.';

export const REALTIME_LIMITS = {
  thresholdMin: 0.1,
  thresholdMax: 0.9,
  thresholdDefault: 0.85,
  prefixPaddingMsMax: 10_000,
  prefixPaddingMsDefault: 333,
  silenceDurationMsMax: 10_000,
  speedMin: 0.7,
  speedMax: 1.5,
  keytermsMax: 100,
  keytermCharsMax: 50,
  clientSecretSecondsMax: 3600,
  clientSecretSecondsDefault: 600,
  dtmfIdleFlushMs: 2500,
} as const;

/** Query of the WebSocket: `call_id` (SIP, API key only) or `model`; `reasoning.effort`; `conversation_id`. */
export interface RealtimeQuery {
  model?: string;
  'reasoning.effort'?: string;
  call_id?: string;
  conversation_id?: string;
}

const id = z.string().nullish();
const int = z.number().int().nullish();

/** A loose event schema: `type`, optional `event_id`, and the typed fields given. */
function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.looseObject({ type: z.literal(type), event_id: id, ...shape });
}

const loose = z.looseObject({});
const audioFormat = z.looseObject({ type: z.string().optional(), rate: z.number().optional() });
export const turnDetectionSchema = z
  .looseObject({
    type: z.string().optional(),
    threshold: z.number().optional(),
    prefix_padding_ms: z.number().optional(),
    silence_duration_ms: z.number().optional(),
    idle_timeout_ms: z.number().nullish(),
  })
  .nullable();

/** A session's configuration (wire-notes §2.2: hybrid placement; GA spots also accepted). */
export const realtimeSessionSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  instructions: z.string().nullish(),
  voice: z.string().nullish(),
  turn_detection: turnDetectionSchema.optional(),
  audio: z
    .looseObject({
      input: z.looseObject({ format: audioFormat.optional(), transcription: loose.nullish(), turn_detection: turnDetectionSchema.optional(), transport: z.string().optional() }).optional(),
      output: z.looseObject({ format: audioFormat.optional(), voice: z.string().optional(), speed: z.number().optional(), transport: z.string().optional() }).optional(),
    })
    .optional(),
  tools: z.array(loose).optional(),
});
export type RealtimeSession = z.infer<typeof realtimeSessionSchema>;

/** A content part: `input_text`/`input_audio`/`text`/`audio`/`output_text`/`output_audio` all appear. */
const contentPart = z.looseObject({ type: z.string(), text: z.string().nullish(), audio: z.string().nullish(), transcript: z.string().nullish() });
/** An item: message (role + content), function_call, function_call_output, force_message, ... */
export const realtimeItemSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  role: z.string().optional(),
  status: z.string().optional(),
  content: z.array(contentPart).optional(),
  call_id: z.string().optional(),
  name: z.string().optional(),
  arguments: z.string().optional(),
  output: z.string().optional(),
});
export type RealtimeItem = z.infer<typeof realtimeItemSchema>;

export const realtimeUsageSchema = z.looseObject({
  total_tokens: z.number().optional(),
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  input_token_details: loose.optional(),
  output_token_details: loose.optional(),
});
export const realtimeResponseSchema = z.looseObject({
  id: z.string().optional(),
  status: z.string().optional(),
  status_details: z.unknown().optional(),
  output: z.array(realtimeItemSchema).optional(),
  usage: realtimeUsageSchema.nullish(),
});

// ---- Client -> server ----
export const REALTIME_CLIENT_SCHEMAS = {
  'session.update': event('session.update', { session: realtimeSessionSchema }),
  'input_audio_buffer.append': event('input_audio_buffer.append', { audio: z.string() }),
  'input_audio_buffer.commit': event('input_audio_buffer.commit', {}),
  'input_audio_buffer.clear': event('input_audio_buffer.clear', {}),
  'conversation.item.create': event('conversation.item.create', { previous_item_id: id, item: realtimeItemSchema }),
  'conversation.item.delete': event('conversation.item.delete', { item_id: z.string() }),
  'conversation.item.truncate': event('conversation.item.truncate', { item_id: z.string(), content_index: z.number().int(), audio_end_ms: z.number() }),
  'response.create': event('response.create', { response: loose.nullish() }),
  'response.cancel': event('response.cancel', { response_id: id }),
} as const;
export type RealtimeClientType = keyof typeof REALTIME_CLIENT_SCHEMAS;
export const REALTIME_CLIENT_TYPES = Object.keys(REALTIME_CLIENT_SCHEMAS) as RealtimeClientType[];
export type RealtimeClientEvent = { [K in RealtimeClientType]: z.infer<(typeof REALTIME_CLIENT_SCHEMAS)[K]> }[RealtimeClientType];

// ---- Server -> client ----
const inResponse = { response_id: id, item_id: id, output_index: int, content_index: int };
const delta = { ...inResponse, delta: z.string() };
const mcpEvent = { item_id: id, output_index: int };
export const REALTIME_SERVER_SCHEMAS = {
  'session.created': event('session.created', { session: realtimeSessionSchema }),
  'session.updated': event('session.updated', { session: realtimeSessionSchema }),
  'conversation.created': event('conversation.created', { conversation: loose.optional() }),
  'input_audio_buffer.speech_started': event('input_audio_buffer.speech_started', { audio_start_ms: z.number(), item_id: id }),
  'input_audio_buffer.speech_stopped': event('input_audio_buffer.speech_stopped', { audio_end_ms: z.number(), item_id: id }),
  'input_audio_buffer.committed': event('input_audio_buffer.committed', { previous_item_id: id, item_id: id }),
  'input_audio_buffer.cleared': event('input_audio_buffer.cleared', {}),
  'input_audio_buffer.timeout_triggered': event('input_audio_buffer.timeout_triggered', { audio_start_ms: z.number().optional(), audio_end_ms: z.number().optional(), item_id: id }),
  'input_audio_buffer.dtmf_event_received': event('input_audio_buffer.dtmf_event_received', { event: z.string(), received_at: z.number().optional() }),
  'conversation.item.added': event('conversation.item.added', { previous_item_id: id, item: realtimeItemSchema }),
  'conversation.item.created': event('conversation.item.created', { previous_item_id: id, item: realtimeItemSchema }),
  'conversation.item.deleted': event('conversation.item.deleted', { item_id: z.string() }),
  'conversation.item.truncated': event('conversation.item.truncated', { item_id: z.string(), content_index: int, audio_end_ms: z.number() }),
  'conversation.item.input_audio_transcription.completed': event('conversation.item.input_audio_transcription.completed', { item_id: id, content_index: int, transcript: z.string(), usage: loose.nullish() }),
  'conversation.item.input_audio_transcription.updated': event('conversation.item.input_audio_transcription.updated', { item_id: id, content_index: int, transcript: z.string() }),
  'response.created': event('response.created', { response: realtimeResponseSchema }),
  'response.output_item.added': event('response.output_item.added', { response_id: id, output_index: int, item: realtimeItemSchema }),
  'response.output_item.done': event('response.output_item.done', { response_id: id, output_index: int, item: realtimeItemSchema }),
  'response.content_part.added': event('response.content_part.added', { ...inResponse, part: contentPart }),
  'response.content_part.done': event('response.content_part.done', { ...inResponse, part: contentPart }),
  'response.output_audio.delta': event('response.output_audio.delta', delta),
  'response.output_audio.done': event('response.output_audio.done', inResponse),
  'response.output_audio_transcript.delta': event('response.output_audio_transcript.delta', delta),
  'response.output_audio_transcript.done': event('response.output_audio_transcript.done', { ...inResponse, transcript: z.string().optional() }),
  'response.text.delta': event('response.text.delta', delta),
  'response.text.done': event('response.text.done', { ...inResponse, text: z.string().optional() }),
  'response.output_text.delta': event('response.output_text.delta', delta),
  'response.output_text.done': event('response.output_text.done', { ...inResponse, text: z.string().optional() }),
  'response.function_call_arguments.delta': event('response.function_call_arguments.delta', { ...inResponse, call_id: id, delta: z.string() }),
  'response.function_call_arguments.done': event('response.function_call_arguments.done', { ...inResponse, call_id: id, name: z.string().optional(), arguments: z.string() }),
  'mcp_list_tools.in_progress': event('mcp_list_tools.in_progress', mcpEvent),
  'mcp_list_tools.completed': event('mcp_list_tools.completed', mcpEvent),
  'mcp_list_tools.failed': event('mcp_list_tools.failed', mcpEvent),
  'response.mcp_call_arguments.delta': event('response.mcp_call_arguments.delta', { ...inResponse, call_id: id, delta: z.string() }),
  'response.mcp_call_arguments.done': event('response.mcp_call_arguments.done', { ...inResponse, call_id: id, name: z.string().optional(), arguments: z.string().optional() }),
  'response.mcp_call.in_progress': event('response.mcp_call.in_progress', mcpEvent),
  'response.mcp_call.completed': event('response.mcp_call.completed', mcpEvent),
  'response.mcp_call.failed': event('response.mcp_call.failed', mcpEvent),
  'response.done': event('response.done', { response: realtimeResponseSchema, usage: realtimeUsageSchema.nullish() }),
  ping: event('ping', { timestamp: z.number().optional() }),
  error: event('error', {
    message: z.string().optional(),
    code: z.union([z.string(), z.number()]).nullish(),
    error: z
      .looseObject({ type: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish(), message: z.string().nullish(), param: z.string().nullish(), event_id: z.string().nullish() })
      .optional(),
  }),
} as const;
export type RealtimeServerType = keyof typeof REALTIME_SERVER_SCHEMAS;
export const REALTIME_SERVER_TYPES = Object.keys(REALTIME_SERVER_SCHEMAS) as RealtimeServerType[];
export type RealtimeServerEvent = { [K in RealtimeServerType]: z.infer<(typeof REALTIME_SERVER_SCHEMAS)[K]> }[RealtimeServerType];

export const parseRealtimeServerEvent: WsMessageParser<RealtimeServerEvent> = wsMessageParser<RealtimeServerEvent>(REALTIME_SERVER_SCHEMAS);
export const parseRealtimeClientEvent: WsMessageParser<RealtimeClientEvent> = wsMessageParser<RealtimeClientEvent>(REALTIME_CLIENT_SCHEMAS);

/** `response.text.delta` and `response.output_text.delta` are the same event (spec: handle both). */
export function isTextDelta(e: { type: string }): boolean {
  return e.type === 'response.text.delta' || e.type === 'response.output_text.delta';
}

/** `POST /v1/realtime/client_secrets` (wire-notes §6.4; the older wrapped reply is also read). */
export interface ClientSecretRequest {
  expires_after?: { seconds: number };
  session?: Record<string, unknown>;
}
export const clientSecretSchema = z.union([
  z.looseObject({ value: z.string(), expires_at: z.number() }),
  z.looseObject({ client_secret: z.looseObject({ value: z.string(), expires_at: z.number() }) }).transform((v) => v.client_secret),
]);
export type ClientSecret = { value: string; expires_at: number };

/** The subprotocol carrying a client secret. */
export function clientSecretProtocol(secret: string): string {
  return `${CLIENT_SECRET_PROTOCOL_PREFIX}${secret}`;
}

/**
 * Wire shapes of `POST /v1/messages` (the Anthropic-style Messages interface): request, content
 * blocks, tools, the Message response and the stream events (spec "Message (Messages interface)
 * response", wire-notes §1.4).
 */

/** Accepted on any request block and ignored by the service. */
export interface CacheControl {
  type: 'ephemeral' | string;
  ttl?: string;
}

export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl | null;
}

export type ImageSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string };

export interface ImageBlock {
  type: 'image';
  source: ImageSource;
  cache_control?: CacheControl | null;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  /** Opaque; non-empty on a finished block. */
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  /** `toolu_…` or `call-…`. */
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl | null;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
  cache_control?: CacheControl | null;
}

/** Blocks a request may carry (user turns: text, image, tool_result; assistant turns: text, thinking, tool_use). */
export type MessagesRequestBlock =
  | TextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

/** Blocks of a Message response. */
export type MessagesContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;

export interface MessagesInputMessage {
  role: 'user' | 'assistant';
  content: string | MessagesRequestBlock[];
}

export interface MessagesTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };
  cache_control?: CacheControl | null;
}

export type MessagesToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean };

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessagesInputMessage[];
  system?: string | TextBlock[];
  metadata?: { user_id?: string | null };
  stop_sequences?: string[] | null;
  stream?: boolean | null;
  temperature?: number | null;
  top_p?: number | null;
  /** Unsupported by the service (accepted and ignored by the sandbox). */
  top_k?: number | null;
  tools?: MessagesTool[] | null;
  tool_choice?: MessagesToolChoice;
}

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  /** Unsupported by the service: always 0. */
  cache_creation_input_tokens: number;
}

export interface MessagesResponse {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesContentBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

// ---- streaming (every frame is `event: <type>` + `data: <json>`, then `data: [DONE]`) ----

export interface MessageStartEvent {
  type: 'message_start';
  message: MessagesResponse;
}

export interface ContentBlockStartEvent {
  type: 'content_block_start';
  index: number;
  /** Starts empty: text `""`, thinking `""` with signature `""`, tool_use with `input: {}`. */
  content_block: MessagesContentBlock;
}

export type ContentBlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string };

export interface ContentBlockDeltaEvent {
  type: 'content_block_delta';
  index: number;
  delta: ContentBlockDelta;
}

export interface ContentBlockStopEvent {
  type: 'content_block_stop';
  index: number;
}

export interface MessageDeltaEvent {
  type: 'message_delta';
  delta: { stop_reason: MessagesStopReason | null; stop_sequence: string | null };
  usage: { output_tokens: number };
}

export interface MessageStopEvent {
  type: 'message_stop';
}

export interface PingEvent {
  type: 'ping';
}

export interface MessagesStreamErrorEvent {
  type: 'error';
  error: { type: 'overloaded_error' | 'api_error' | string; message: string };
}

export type MessagesStreamEvent =
  | MessageStartEvent
  | ContentBlockStartEvent
  | ContentBlockDeltaEvent
  | ContentBlockStopEvent
  | MessageDeltaEvent
  | MessageStopEvent
  | PingEvent
  | MessagesStreamErrorEvent;

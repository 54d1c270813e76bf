/**
 * Wire shapes of `POST /v1/chat/completions`, its stream chunks (wire-notes §1.2) and the
 * deferred endpoint. Request fields follow the spec's parameter table.
 */
import type { SearchParameters, WebSearchOptions } from './search';

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool' | 'developer';

export type ChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } }
  | { type: 'file'; file: { file_id?: string; url?: string } };

export interface ChatToolCall {
  id: string;
  type: 'function' | string;
  index?: number;
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: ChatRole;
  content?: string | ChatContentPart[] | null;
  name?: string;
  reasoning_content?: string | null;
  tool_calls?: ChatToolCall[] | null;
  tool_call_id?: string;
}

export interface ChatFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean } };

export type { SearchParameters, WebSearchOptions } from './search';

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  deferred?: boolean | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  max_completion_tokens?: number | null;
  max_tokens?: number | null;
  n?: number | null;
  parallel_tool_calls?: boolean | null;
  prompt_cache_key?: string | null;
  reasoning_effort?: 'none' | 'low' | 'medium' | 'high' | null;
  response_format?: ChatResponseFormat;
  search_parameters?: SearchParameters;
  seed?: number | null;
  service_tier?: 'default' | 'priority';
  stop?: string[] | null;
  stream?: boolean | null;
  stream_options?: { include_usage: boolean };
  temperature?: number | null;
  top_p?: number | null;
  tool_choice?: ChatToolChoice;
  tools?: ChatFunctionTool[] | null;
  user?: string | null;
  web_search_options?: WebSearchOptions;
}

export interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
}

export interface LogprobEntry extends TopLogprob {
  top_logprobs: TopLogprob[];
}

export type FinishReason = 'stop' | 'length' | 'end_turn' | 'tool_calls' | string;

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_in_usd_ticks: number;
  num_sources_used: number;
  prompt_tokens_details: { text_tokens: number; audio_tokens: number; image_tokens: number; cached_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export interface ChatCompletionMessage {
  role: 'assistant';
  content: string | null;
  reasoning_content: string | null;
  refusal: string | null;
  tool_calls: ChatToolCall[] | null;
}

export interface ChatChoice {
  index: number;
  finish_reason: FinishReason | null;
  logprobs: { content: LogprobEntry[] | null } | null;
  message: ChatCompletionMessage;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoice[];
  citations: string[] | null;
  output_files: unknown[] | null;
  service_tier: 'default' | 'priority';
  system_fingerprint: string | null;
  usage: ChatUsage;
}

export interface ChatChunkDelta {
  role?: 'assistant';
  content?: string | null;
  reasoning_content?: string | null;
  tool_calls?: ChatToolCall[];
  refusal?: string | null;
}

export interface ChatChunkChoice {
  index: number;
  delta: ChatChunkDelta;
  finish_reason?: FinishReason | null;
  logprobs?: { content: LogprobEntry[] | null } | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatChunkChoice[];
  system_fingerprint?: string | null;
  usage?: ChatUsage | null;
  citations?: string[] | null;
}

/** `deferred: true` answer. */
export interface DeferredCreated {
  request_id: string;
}

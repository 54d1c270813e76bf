/**
 * Wire shapes of the Responses interface: `POST /v1/responses` (request, Response object, stream
 * events), `GET`/`DELETE /v1/responses/{id}` and `POST /v1/responses/compact` (spec "Response",
 * "Deleted response", "Compaction"; wire-notes §1.3).
 */
import type { LogprobEntry } from './chat';
import type { SearchParameters, UrlCitation } from './search';

export type ReasoningEffort = 'none' | 'low' | 'medium' | 'high';
export type ResponseStatus = 'completed' | 'in_progress' | 'incomplete' | 'failed';

// ---------------------------------------------------------------------------------------------
// Input items

export type ResponseInputContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url?: string; file_id?: string; detail?: string }
  | { type: 'input_file'; file_id?: string; file_data?: string; filename?: string; file_url?: string; mime_type?: string }
  | { type: 'output_text'; text: string; annotations?: unknown[]; logprobs?: unknown[] }
  | { type: 'refusal'; refusal: string };

/** A message given as input; `type` is optional on the wire. */
export interface ResponseInputMessage {
  type?: 'message';
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | ResponseInputContentPart[];
  /** Present when a prior output message is passed back verbatim. */
  id?: string;
  status?: string;
}

/** The client's answer to a `function_call` output item. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string;
  id?: string;
  status?: string;
}

/** The opaque item returned by `/v1/responses/compact`, passed verbatim as input. */
export interface CompactionItem {
  type: 'compaction';
  id: string;
  encrypted_content: string;
}

/** Anything `input` may hold: messages, tool outputs, compaction, prior output items verbatim. */
export type ResponseInputItem =
  | ResponseInputMessage
  | FunctionCallOutputItem
  | CompactionItem
  | ResponseOutputItem;

// ---------------------------------------------------------------------------------------------
// Output items

export interface OutputTextPart {
  type: 'output_text';
  text: string;
  logprobs: LogprobEntry[];
  annotations: UrlCitation[];
}

export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

export interface ResponseOutputMessage {
  type: 'message';
  id: string;
  role: 'assistant';
  status: 'in_progress' | 'completed' | 'incomplete';
  content: (OutputTextPart | RefusalPart)[];
}

export interface ReasoningSummaryText {
  type: 'summary_text';
  text: string;
}

export interface ResponseReasoningItem {
  type: 'reasoning';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  summary: ReasoningSummaryText[];
  encrypted_content?: string | null;
}

export interface ResponseFunctionCall {
  type: 'function_call';
  id: string;
  /** `call_<...>`; the client answers with a `function_call_output` carrying it. */
  call_id: string;
  name: string;
  /** JSON text valid against the tool's `parameters`. */
  arguments: string;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/** Minimal server-side web search record (wire-notes §1.3). */
export interface ResponseWebSearchCall {
  type: 'web_search_call';
  id: string;
  status: 'in_progress' | 'searching' | 'completed' | 'failed';
  action?: { type: 'search'; query: string; sources?: { type: 'url'; url: string }[] };
}

export type ResponseOutputItem =
  | ResponseOutputMessage
  | ResponseReasoningItem
  | ResponseFunctionCall
  | ResponseWebSearchCall;

// ---------------------------------------------------------------------------------------------
// Request

export type ResponseTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; schema: Record<string, unknown>; name?: string; description?: string; strict?: boolean | null };

export interface ResponseFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export interface ResponseWebSearchTool {
  type: 'web_search' | 'web_search_preview';
  allowed_domains?: string[];
  excluded_domains?: string[];
  enable_image_understanding?: boolean;
  enable_image_search?: boolean;
}

export type ResponseTool = ResponseFunctionTool | ResponseWebSearchTool;

export type ResponseToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

export interface ResponseReasoningParam {
  effort?: ReasoningEffort | null;
  summary?: 'auto' | 'concise' | 'detailed' | null;
  generate_summary?: 'auto' | 'concise' | 'detailed' | null;
}

export interface ResponseCreateRequest {
  input: string | ResponseInputItem[];
  model?: string;
  instructions?: string | null;
  previous_response_id?: string | null;
  background?: boolean | null;
  context_management?: unknown[] | null;
  include?: string[] | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  max_output_tokens?: number | null;
  max_turns?: number | null;
  max_tool_calls?: number | null;
  metadata?: Record<string, unknown> | null;
  min_p?: number | null;
  top_k?: number | null;
  parallel_tool_calls?: boolean | null;
  prompt_cache_key?: string | null;
  reasoning?: ResponseReasoningParam | null;
  reasoning_effort?: ReasoningEffort | null;
  search_parameters?: SearchParameters | null;
  service_tier?: 'default' | 'priority' | null;
  store?: boolean | null;
  stream?: boolean | null;
  temperature?: number | null;
  top_p?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  text?: { format?: ResponseTextFormat } | null;
  tool_choice?: ResponseToolChoice | null;
  tools?: ResponseTool[] | null;
  truncation?: string | null;
  user?: string | null;
  safety_identifier?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Response object

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  num_sources_used: number;
  num_server_side_tools_used: number;
  cost_in_usd_ticks: number | null;
  cost_in_nano_usd: number | null;
  context_details: { input_tokens: number; output_tokens: number };
  server_side_tool_usage_details: {
    code_interpreter_calls: number;
    document_search_calls: number;
    file_search_calls: number;
    image_generation_calls: number;
    mcp_calls: number;
    web_search_calls: number;
    x_search_calls: number;
  };
}

export interface ResponseError {
  code: string;
  message: string;
}

export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  completed_at: number | null;
  model: string;
  status: ResponseStatus;
  background: boolean;
  store: boolean;
  error: ResponseError | null;
  incomplete_details: { reason: 'max_output_tokens' | 'max_prompt_tokens' | 'max_time_limit' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  metadata: Record<string, unknown>;
  output: ResponseOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  prompt_cache_key: string | null;
  reasoning: { effort: ReasoningEffort | null; summary: 'detailed' | null; generate_summary?: string | null };
  safety_identifier: string | null;
  service_tier: string;
  temperature: number | null;
  top_p: number | null;
  text: { format: ResponseTextFormat };
  tool_choice: ResponseToolChoice;
  tools: ResponseTool[];
  top_logprobs: number;
  truncation: string;
  frequency_penalty: number;
  presence_penalty: number;
  user: string | null;
  /** Null while in progress (stream `response.created` / `response.in_progress`). */
  usage: ResponseUsage | null;
}

/** `DELETE /v1/responses/{id}`. */
export interface DeletedResponse {
  id: string;
  object: 'response';
  deleted: boolean;
}

// ---------------------------------------------------------------------------------------------
// Compaction

export interface CompactRequest {
  input: string | ResponseInputItem[];
  model: string;
}

export interface Compaction {
  /** `cmp_<uuid>`. */
  id: string;
  object: 'response.compaction';
  created_at: number;
  model: string;
  /** A single compaction item, to be passed verbatim as `input` of the next responses call. */
  output: CompactionItem[];
  usage: {
    dropped_message_count: number;
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  };
}

// ---------------------------------------------------------------------------------------------
// Stream events (wire-notes §1.3). Every event has `type` and `sequence_number` (0-based, +1).

interface Seq {
  sequence_number: number;
}
interface ItemRef extends Seq {
  item_id: string;
  output_index: number;
}

export type ResponseStreamEvent =
  | (Seq & { type: 'response.created' | 'response.in_progress' | 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponseObject })
  | (Seq & { type: 'response.output_item.added' | 'response.output_item.done'; output_index: number; item: ResponseOutputItem })
  | (ItemRef & { type: 'response.reasoning_summary_part.added' | 'response.reasoning_summary_part.done'; summary_index: number; part: ReasoningSummaryText })
  | (ItemRef & { type: 'response.reasoning_summary_text.delta'; summary_index: number; delta: string })
  | (ItemRef & { type: 'response.reasoning_summary_text.done'; summary_index: number; text: string })
  | (ItemRef & { type: 'response.content_part.added' | 'response.content_part.done'; content_index: number; part: OutputTextPart | RefusalPart })
  | (ItemRef & { type: 'response.output_text.delta'; content_index: number; delta: string; logprobs: LogprobEntry[] })
  | (ItemRef & { type: 'response.output_text.done'; content_index: number; text: string; logprobs?: LogprobEntry[] })
  | (ItemRef & { type: 'response.output_text.annotation.added'; content_index: number; annotation_index: number; annotation: UrlCitation })
  | (ItemRef & { type: 'response.function_call_arguments.delta'; delta: string })
  | (ItemRef & { type: 'response.function_call_arguments.done'; arguments: string })
  | (ItemRef & { type: 'response.web_search_call.in_progress' | 'response.web_search_call.searching' | 'response.web_search_call.completed' })
  | (Seq & { type: 'error'; code: string; message: string; param: string | null });

/** The `type` strings of the stream events. */
export type ResponseStreamEventType = ResponseStreamEvent['type'];

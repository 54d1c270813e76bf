/**
 * The Chat playground's form as plain data, and the two translations the store needs:
 * form -> wire request (what Send posts) and wire request -> form (Re-run from History).
 * JSON text fields are parsed here so their mistakes become violations, not exceptions.
 */
import type { ChatMessage, ChatRequest, ChatToolCall } from '@shared/wire/chat';
import type { LimitViolation } from '@shared/limits';
import { toChatToolChoice, toChatTools, toolChoiceFromChat, toolSpecsFromChat, type ToolChoiceSpec, type ToolSpec } from '@shared/tools/tool-spec';
import { validateToolSpecs } from '@shared/tools/validate-specs';
import {
  responseFormatFromChat,
  responseFormatProblems,
  toChatResponseFormat,
  type ResponseFormatSpec,
} from '@shared/json-schema/response-format';

export type EditableRole = 'user' | 'assistant' | 'system' | 'tool';

/** One row of the message editor; `id` is a stable key for the list, never sent. */
export interface FormMessage {
  id: number;
  role: EditableRole;
  content: string;
  toolCallId?: string;
  /** An assistant turn's tool calls (the tool loop appends them); sent as `tool_calls`. */
  toolCalls?: ChatToolCall[];
}

export type ResponseFormatType = 'text' | 'json_object' | 'json_schema';
export type ReasoningEffort = 'none' | 'low' | 'medium' | 'high';

/** Sampling and output parameters; null means "leave unset" (the service default applies). */
export interface ChatParams {
  temperature: number | null;
  topP: number | null;
  maxCompletionTokens: number | null;
  n: number | null;
  stop: string[];
  seed: number | null;
  frequencyPenalty: number | null;
  presencePenalty: number | null;
  logprobs: boolean;
  topLogprobs: number | null;
  reasoningEffort: ReasoningEffort | null;
  responseFormat: ResponseFormatType;
  jsonSchemaName: string;
  jsonSchemaText: string;
  jsonSchemaStrict: boolean;
  tools: ToolSpec[];
  toolChoice: ToolChoiceSpec;
  parallelToolCalls: boolean;
  stream: boolean;
  includeUsage: boolean;
  deferred: boolean;
  /** Live search (`search_parameters` mode on, citations returned). */
  search: boolean;
}

export interface ChatForm {
  model: string;
  systemPrompt: string;
  messages: FormMessage[];
  params: ChatParams;
}

/** Defaults of a fresh playground: streaming with usage, everything else unset. */
export function defaultParams(): ChatParams {
  return {
    temperature: null,
    topP: null,
    maxCompletionTokens: null,
    n: null,
    stop: [],
    seed: null,
    frequencyPenalty: null,
    presencePenalty: null,
    logprobs: false,
    topLogprobs: null,
    reasoningEffort: null,
    responseFormat: 'text',
    jsonSchemaName: 'response',
    jsonSchemaText: '',
    jsonSchemaStrict: true,
    tools: [],
    toolChoice: 'auto',
    parallelToolCalls: true,
    stream: true,
    includeUsage: true,
    deferred: false,
    search: false,
  };
}

export interface BuiltRequest {
  request: ChatRequest;
  /** Problems found while translating (unparseable JSON fields). */
  violations: LimitViolation[];
}

/** The structured-output part of the params as the SchemaEditor edits it. */
export function formatSpecOf(p: ChatParams): ResponseFormatSpec {
  return { type: p.responseFormat, name: p.jsonSchemaName, strict: p.jsonSchemaStrict, schemaText: p.jsonSchemaText };
}

/** Writes a SchemaEditor value back into the params. */
export function applyFormatSpec(p: ChatParams, spec: ResponseFormatSpec): void {
  p.responseFormat = spec.type;
  p.jsonSchemaName = spec.name;
  p.jsonSchemaStrict = spec.strict;
  p.jsonSchemaText = spec.schemaText;
}

function toWireMessage(m: FormMessage): ChatMessage {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
  if (m.role === 'assistant' && m.toolCalls?.length) return { role: 'assistant', content: m.content || null, tool_calls: m.toolCalls };
  return { role: m.role, content: m.content };
}

/** The request Send posts: only set parameters are included, so service defaults apply. */
export function buildChatRequest(form: ChatForm): BuiltRequest {
  const violations: LimitViolation[] = [];
  const p = form.params;
  const messages: ChatMessage[] = [];
  if (form.systemPrompt.trim()) messages.push({ role: 'system', content: form.systemPrompt });
  messages.push(...form.messages.map(toWireMessage));
  const request: ChatRequest = { model: form.model, messages };
  const set = <K extends keyof ChatRequest>(key: K, value: ChatRequest[K] | null | undefined): void => {
    if (value !== null && value !== undefined) request[key] = value;
  };
  set('temperature', p.temperature);
  set('top_p', p.topP);
  set('max_completion_tokens', p.maxCompletionTokens);
  set('n', p.n);
  const stop = p.stop.filter((s) => s.length > 0);
  if (stop.length) request.stop = stop;
  set('seed', p.seed);
  set('frequency_penalty', p.frequencyPenalty);
  set('presence_penalty', p.presencePenalty);
  if (p.logprobs) {
    request.logprobs = true;
    set('top_logprobs', p.topLogprobs);
  }
  set('reasoning_effort', p.reasoningEffort);
  const format = formatSpecOf(p);
  for (const message of responseFormatProblems(format)) violations.push({ field: 'response_format', message });
  set('response_format', toChatResponseFormat(format));
  if (p.tools.length) {
    for (const problem of validateToolSpecs(p.tools)) {
      // The tools editor words parameter problems with JSON positions; it reports them itself.
      if (problem.field !== 'parameters') violations.push({ field: 'tools', message: problem.message });
    }
    request.tools = toChatTools(p.tools);
    if (p.toolChoice !== 'auto') request.tool_choice = toChatToolChoice(p.toolChoice);
    if (!p.parallelToolCalls) request.parallel_tool_calls = false;
  }
  if (p.search) request.search_parameters = { mode: 'on', return_citations: true };
  if (p.deferred) request.deferred = true;
  else {
    request.stream = p.stream;
    if (p.stream) request.stream_options = { include_usage: p.includeUsage };
  }
  return { request, violations };
}

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

/** A recorded request back into the form (Re-run in playground). Unknown fields are dropped. */
export function formFromRequest(body: unknown, nextId: () => number): ChatForm {
  const req = (body ?? {}) as Partial<ChatRequest>;
  const params = defaultParams();
  const all = Array.isArray(req.messages) ? req.messages : [];
  const first = all[0];
  const systemPrompt = first && first.role === 'system' ? contentText(first.content) : '';
  const rest = first?.role === 'system' ? all.slice(1) : all;
  const messages: FormMessage[] = rest.map((m) => ({
    id: nextId(),
    role: m.role === 'developer' ? 'system' : m.role,
    content: contentText(m.content),
    ...(m.role === 'tool' ? { toolCallId: m.tool_call_id ?? '' } : {}),
    ...(m.role === 'assistant' && m.tool_calls?.length ? { toolCalls: m.tool_calls } : {}),
  }));
  params.temperature = req.temperature ?? null;
  params.topP = req.top_p ?? null;
  params.maxCompletionTokens = req.max_completion_tokens ?? req.max_tokens ?? null;
  params.n = req.n ?? null;
  params.stop = req.stop ?? [];
  params.seed = req.seed ?? null;
  params.frequencyPenalty = req.frequency_penalty ?? null;
  params.presencePenalty = req.presence_penalty ?? null;
  params.logprobs = req.logprobs ?? false;
  params.topLogprobs = req.top_logprobs ?? null;
  params.reasoningEffort = req.reasoning_effort ?? null;
  applyFormatSpec(params, responseFormatFromChat(req.response_format));
  params.tools = toolSpecsFromChat(req.tools);
  params.toolChoice = toolChoiceFromChat(req.tool_choice);
  params.parallelToolCalls = req.parallel_tool_calls !== false;
  params.search = req.search_parameters !== undefined && req.search_parameters.mode !== 'off';
  params.deferred = req.deferred === true;
  params.stream = req.deferred === true ? true : req.stream === true;
  params.includeUsage = req.stream_options?.include_usage ?? true;
  return { model: req.model ?? '', systemPrompt, messages, params };
}

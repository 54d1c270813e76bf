/**
 * The Chat playground's form as plain data, and the two translations the store needs:
 * form -> wire request (what Send posts) and wire request -> form (Re-run from History).
 * JSON text fields are parsed here so their mistakes become violations, not exceptions.
 */
import type { ChatFunctionTool, ChatMessage, ChatRequest, ChatResponseFormat } from '@shared/wire/chat';
import type { LimitViolation } from '@shared/limits';

export type EditableRole = 'user' | 'assistant' | 'system' | 'tool';

/** One row of the message editor; `id` is a stable key for the list, never sent. */
export interface FormMessage {
  id: number;
  role: EditableRole;
  content: string;
  toolCallId?: string;
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
  toolsText: string;
  stream: boolean;
  includeUsage: boolean;
  deferred: boolean;
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
    toolsText: '',
    stream: true,
    includeUsage: true,
    deferred: false,
  };
}

export interface BuiltRequest {
  request: ChatRequest;
  /** Problems found while translating (unparseable JSON fields). */
  violations: LimitViolation[];
}

function parseJsonField(field: string, text: string, violations: LimitViolation[]): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    violations.push({ field, message: `${field} is not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

function buildTools(text: string, violations: LimitViolation[]): ChatFunctionTool[] | undefined {
  if (!text.trim()) return undefined;
  const parsed = parseJsonField('tools', text, violations);
  if (parsed === undefined) return undefined;
  if (!Array.isArray(parsed)) {
    violations.push({ field: 'tools', message: 'tools must be a JSON array of function tools' });
    return undefined;
  }
  parsed.forEach((tool, i) => {
    const fn = (tool as ChatFunctionTool | null)?.function;
    if ((tool as ChatFunctionTool | null)?.type !== 'function' || typeof fn?.name !== 'string' || !fn.name) {
      violations.push({ field: 'tools', message: `tools[${i}] must be {"type":"function","function":{"name":...}}` });
    }
  });
  return parsed as ChatFunctionTool[];
}

function buildResponseFormat(p: ChatParams, violations: LimitViolation[]): ChatResponseFormat | undefined {
  if (p.responseFormat === 'text') return undefined;
  if (p.responseFormat === 'json_object') return { type: 'json_object' };
  if (!p.jsonSchemaName.trim()) violations.push({ field: 'response_format', message: 'the JSON schema needs a name' });
  const schema = p.jsonSchemaText.trim()
    ? parseJsonField('response_format', p.jsonSchemaText, violations)
    : (violations.push({ field: 'response_format', message: 'paste a JSON schema for json_schema output' }), undefined);
  if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    violations.push({ field: 'response_format', message: 'the JSON schema must be a JSON object' });
  }
  return {
    type: 'json_schema',
    json_schema: { name: p.jsonSchemaName.trim(), schema: (schema ?? {}) as Record<string, unknown>, strict: true },
  };
}

function toWireMessage(m: FormMessage): ChatMessage {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? '' };
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
  set('response_format', buildResponseFormat(p, violations));
  set('tools', buildTools(p.toolsText, violations));
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
  const rf = req.response_format;
  if (rf) {
    params.responseFormat = rf.type;
    if (rf.type === 'json_schema') {
      params.jsonSchemaName = rf.json_schema.name;
      params.jsonSchemaText = JSON.stringify(rf.json_schema.schema, null, 2);
    }
  }
  params.toolsText = req.tools?.length ? JSON.stringify(req.tools, null, 2) : '';
  params.deferred = req.deferred === true;
  params.stream = req.deferred === true ? true : req.stream === true;
  params.includeUsage = req.stream_options?.include_usage ?? true;
  return { model: req.model ?? '', systemPrompt, messages, params };
}

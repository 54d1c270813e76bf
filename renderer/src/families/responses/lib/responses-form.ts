/**
 * The Responses playground's form as plain data, and form -> wire request. Where the request
 * continues from decides its shape: a new chain sends the text (and instructions); a stored
 * response is continued by `previous_response_id` (the service refuses instructions with it); a
 * compaction is continued by passing its item back as input, with no previous_response_id.
 * The reverse (a recorded request -> the form) serves Re-run from History.
 */
import type { ResponseFormatSpec } from '@shared/json-schema/response-format';
import { defaultResponseFormat, responseFormatFromResponses, toResponsesTextFormat } from '@shared/json-schema/response-format';
import { toResponsesToolChoice, toResponsesTools, type ToolChoiceSpec, type ToolSpec } from '@shared/tools/tool-spec';
import type { ReasoningEffort, ResponseCreateRequest, ResponseInputItem, ResponseTextFormat } from '@shared/wire/responses';
import { isObject } from '@shared/is-object';

/** Everything the user edits; null numbers mean "leave unset" (the service default applies). */
export interface ResponsesForm {
  model: string;
  input: string;
  instructions: string;
  store: boolean;
  stream: boolean;
  maxOutputTokens: number | null;
  temperature: number | null;
  topP: number | null;
  reasoningEffort: ReasoningEffort | null;
  search: boolean;
  format: ResponseFormatSpec;
  tools: ToolSpec[];
  toolChoice: ToolChoiceSpec;
  parallelToolCalls: boolean;
}

/** What the next request continues from. */
export type Continuation =
  | { kind: 'new' }
  | { kind: 'previous'; id: string }
  | { kind: 'compaction'; id: string; item: Record<string, unknown> };

/** The reasoning model of the service (the catalogue does not flag reasoning). */
export const REASONING_MODEL = 'svc-3-mini';

/** A fresh form: store and stream on, everything else unset. */
export function defaultResponsesForm(): ResponsesForm {
  return {
    model: '',
    input: '',
    instructions: '',
    store: true,
    stream: true,
    maxOutputTokens: null,
    temperature: null,
    topP: null,
    reasoningEffort: null,
    search: false,
    format: defaultResponseFormat(),
    tools: [],
    toolChoice: 'auto',
    parallelToolCalls: true,
  };
}

/** Whether a model id (or one of its aliases) names the reasoning model. */
export function isReasoningModel(model: string, aliases: readonly string[] = []): boolean {
  return [model, ...aliases].some((name) => name === REASONING_MODEL || name.startsWith(`${REASONING_MODEL}-`));
}

/** Why instructions cannot be sent with this continuation, or null when they can. */
export function instructionsBlockedReason(c: Continuation): string | null {
  return c.kind === 'previous'
    ? 'Instructions are not sent when continuing: the service refuses them with previous_response_id (the first response of the chain keeps its own).'
    : null;
}

function inputFor(form: ResponsesForm, c: Continuation): ResponseCreateRequest['input'] {
  if (c.kind === 'compaction') {
    return [c.item as unknown as ResponseInputItem, { role: 'user', content: form.input }];
  }
  return form.input;
}

/**
 * The request Send posts. Unset parameters are left out, so the request shows (and the code
 * export copies) only what the user chose.
 */
export function buildResponsesRequest(form: ResponsesForm, c: Continuation, opts: { reasoningModel?: boolean } = {}): ResponseCreateRequest {
  const req: ResponseCreateRequest = { model: form.model, input: inputFor(form, c) };
  if (c.kind === 'previous') req.previous_response_id = c.id;
  else if (form.instructions.trim()) req.instructions = form.instructions;
  req.store = form.store;
  req.stream = form.stream;
  if (form.maxOutputTokens !== null) req.max_output_tokens = form.maxOutputTokens;
  if (form.temperature !== null) req.temperature = form.temperature;
  if (form.topP !== null) req.top_p = form.topP;
  if (opts.reasoningModel && form.reasoningEffort) req.reasoning = { effort: form.reasoningEffort, summary: 'auto' };
  if (form.search) req.search_parameters = { mode: 'on', return_citations: true };
  const format = toResponsesTextFormat(form.format);
  if (format) req.text = { format };
  if (form.tools.length) {
    req.tools = toResponsesTools(form.tools);
    req.tool_choice = toResponsesToolChoice(form.toolChoice);
    if (!form.parallelToolCalls) req.parallel_tool_calls = false;
  }
  return req;
}

type Obj = Record<string, unknown>;
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The text of the last user message of an input (a string input is that text). */
function lastUserText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  for (const item of [...input].reverse()) {
    if (!isObject(item) || item.role !== 'user') continue;
    if (typeof item.content === 'string') return item.content;
    if (Array.isArray(item.content)) {
      return item.content.filter(isObject).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
    }
  }
  return '';
}

/**
 * The form back from a recorded request (Re-run from History), and what it continued from:
 * the previous response, or the compaction whose item it carried.
 */
export function formFromResponsesRequest(body: unknown): { form: ResponsesForm; from: string | null } {
  const form = defaultResponsesForm();
  if (!isObject(body)) return { form, from: null };
  form.model = typeof body.model === 'string' ? body.model : '';
  form.input = lastUserText(body.input);
  form.instructions = typeof body.instructions === 'string' ? body.instructions : '';
  form.store = body.store !== false;
  form.stream = body.stream !== false;
  form.maxOutputTokens = numOrNull(body.max_output_tokens);
  form.temperature = numOrNull(body.temperature);
  form.topP = numOrNull(body.top_p);
  const effort = isObject(body.reasoning) ? body.reasoning.effort : body.reasoning_effort;
  form.reasoningEffort = typeof effort === 'string' ? (effort as ReasoningEffort) : null;
  form.search = isObject(body.search_parameters) && body.search_parameters.mode !== 'off';
  if (isObject(body.text) && isObject(body.text.format)) form.format = responseFormatFromResponses(body.text.format as unknown as ResponseTextFormat);
  if (Array.isArray(body.tools)) {
    form.tools = body.tools
      .filter((t): t is Obj => isObject(t) && t.type === 'function' && typeof t.name === 'string')
      .map((t) => ({
        name: t.name as string,
        description: typeof t.description === 'string' ? t.description : '',
        parameters: isObject(t.parameters) ? t.parameters : { type: 'object', properties: {} },
        ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
      }));
  }
  const choice = body.tool_choice;
  if (typeof choice === 'string' && ['auto', 'none', 'required'].includes(choice)) form.toolChoice = choice as ToolChoiceSpec;
  else if (isObject(choice) && typeof choice.name === 'string') form.toolChoice = { name: choice.name };
  form.parallelToolCalls = body.parallel_tool_calls !== false;
  const compaction = Array.isArray(body.input) ? body.input.find((i) => isObject(i) && i.type === 'compaction' && typeof i.id === 'string') : undefined;
  const from = typeof body.previous_response_id === 'string' ? body.previous_response_id : isObject(compaction) ? (compaction.id as string) : null;
  return { form, from };
}

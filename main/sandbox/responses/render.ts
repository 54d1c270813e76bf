/**
 * A planned response on the wire: its output items (reasoning `rs_<id>`, web search `ws_<id>`,
 * message `msg_<id>`, function calls `fc_<id>_<n>`, wire-notes §1.3) and the Response object with
 * every field of the spec's table, echoing the request's settings.
 */
import type {
  OutputTextPart,
  ResponseCreateRequest,
  ResponseFunctionCall,
  ResponseObject,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ResponseStatus,
  ResponseUsage,
  ResponseWebSearchCall,
} from '../../../shared/wire/responses';
import type { ResponsePlan } from './plan';

export interface ResponseMeta {
  id: string;
  createdAt: number;
  model: string;
  req: ResponseCreateRequest;
  /** Effort the reasoning model used; null for other models. */
  effort: string | null;
  reasoningModel: boolean;
  store: boolean;
}

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export function reasoningItem(meta: ResponseMeta, plan: ResponsePlan, status: ItemStatus, withSummary = true): ResponseReasoningItem | null {
  if (plan.choice.reasoning === '') return null;
  const item: ResponseReasoningItem = {
    id: `rs_${meta.id}`,
    type: 'reasoning',
    status,
    summary: withSummary ? [{ type: 'summary_text', text: plan.choice.reasoning }] : [],
  };
  if (meta.req.include?.includes('reasoning.encrypted_content')) {
    item.encrypted_content = Buffer.from(plan.choice.reasoning).toString('base64url');
  }
  return item;
}

export function webSearchItem(meta: ResponseMeta, plan: ResponsePlan, status: ResponseWebSearchCall['status']): ResponseWebSearchCall | null {
  if (!plan.search?.viaTool) return null;
  const query = lastPrompt(meta.req);
  return {
    id: `ws_${meta.id}`,
    type: 'web_search_call',
    status,
    action: { type: 'search', query, sources: plan.sources.map((s) => ({ type: 'url' as const, url: s.url })) },
  };
}

function lastPrompt(req: ResponseCreateRequest): string {
  if (typeof req.input === 'string') return req.input;
  for (const item of [...req.input].reverse()) {
    if ('role' in item && item.role === 'user') {
      return typeof item.content === 'string' ? item.content : item.content.map((p) => ('text' in p ? p.text : '')).join(' ');
    }
  }
  return '';
}

export function textPart(plan: ResponsePlan, text: string, withAnnotations: boolean): OutputTextPart {
  return { type: 'output_text', text, logprobs: [], annotations: withAnnotations ? plan.annotations : [] };
}

export function messageItem(meta: ResponseMeta, plan: ResponsePlan, status: ItemStatus): ResponseOutputMessage | null {
  if (plan.choice.content === null) return null;
  return { id: `msg_${meta.id}`, type: 'message', role: 'assistant', status, content: [textPart(plan, plan.choice.content, true)] };
}

export function functionCallItems(meta: ResponseMeta, plan: ResponsePlan): ResponseFunctionCall[] {
  return plan.choice.toolCalls.map((c, i) => ({
    id: `fc_${meta.id}_${i}`,
    type: 'function_call',
    call_id: c.id,
    name: c.name,
    arguments: c.arguments,
    status: 'completed',
  }));
}

/** The finished output items, in stream order. */
export function outputItems(meta: ResponseMeta, plan: ResponsePlan): ResponseOutputItem[] {
  const done: ItemStatus = plan.incomplete ? 'incomplete' : 'completed';
  const reasoningDone = plan.incomplete && plan.choice.content === null && plan.choice.toolCalls.length === 0 ? 'incomplete' : 'completed';
  return [
    reasoningItem(meta, plan, reasoningDone),
    webSearchItem(meta, plan, 'completed'),
    messageItem(meta, plan, done),
    ...functionCallItems(meta, plan),
  ].filter((i): i is NonNullable<typeof i> => i !== null);
}

/** The Response object in a given state; `usage` null and no output while in progress. */
export function responseObject(
  meta: ResponseMeta,
  state: { status: ResponseStatus; output: ResponseOutputItem[]; usage: ResponseUsage | null; completedAt: number | null },
): ResponseObject {
  const r = meta.req;
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    completed_at: state.completedAt,
    model: meta.model,
    status: state.status,
    background: false,
    store: meta.store,
    error: null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    max_tool_calls: r.max_tool_calls ?? null,
    metadata: r.metadata ?? {},
    output: state.output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: r.previous_response_id ?? null,
    prompt_cache_key: r.prompt_cache_key ?? null,
    reasoning: meta.reasoningModel
      ? { effort: (meta.effort ?? null) as ResponseObject['reasoning']['effort'], summary: 'detailed' }
      : { effort: null, summary: null },
    safety_identifier: r.safety_identifier ?? null,
    service_tier: r.service_tier ?? 'default',
    temperature: r.temperature ?? null,
    top_p: r.top_p ?? null,
    text: { format: r.text?.format ?? { type: 'text' } },
    tool_choice: r.tool_choice ?? 'auto',
    tools: r.tools ?? [],
    top_logprobs: r.top_logprobs ?? 0,
    truncation: r.truncation ?? 'disabled',
    frequency_penalty: r.frequency_penalty ?? 0,
    presence_penalty: r.presence_penalty ?? 0,
    user: r.user ?? null,
    usage: state.usage,
  };
}

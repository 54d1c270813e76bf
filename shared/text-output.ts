/**
 * One view of any text interface's answer: the choices (content, reasoning, tool calls,
 * logprobs, why it finished), the usage in the chat shape, and the interface-specific meta. Main
 * uses it to turn a plain answer into the same chunks a stream gives; the renderer and History use
 * it to show a recorded run of any interface. Reads the wire objects defensively: a partial
 * (cut) answer or one with unexpected fields still gives what it has.
 */
import type { Endpoint, RunOutput } from './contract/runs';
import { endpointInfo, type OutputShape } from './families';
import type { Citation, TextRunMeta } from './contract/text';
import type { ChatCompletion, ChatToolCall, ChatUsage, LogprobEntry } from './wire/chat';
import { isObject } from './is-object';

export interface TextChoice {
  index: number;
  content: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
  logprobs: LogprobEntry[];
  finishReason: string | null;
}

/** Stored responses are deleted this long after creation (spec: Stored objects). */
export const RESPONSE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

type Obj = Record<string, unknown>;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export function emptyTextChoice(index: number): TextChoice {
  return { index, content: '', reasoning: '', toolCalls: [], logprobs: [], finishReason: null };
}

function chatChoices(output: Obj): TextChoice[] {
  return arr((output as unknown as ChatCompletion).choices)
    .filter(isObject)
    .map((c) => {
      const m = isObject(c.message) ? c.message : {};
      const lp = isObject(c.logprobs) ? arr(c.logprobs.content) : [];
      return {
        index: num(c.index),
        content: str(m.content),
        reasoning: str(m.reasoning_content),
        toolCalls: arr(m.tool_calls) as ChatToolCall[],
        logprobs: lp as LogprobEntry[],
        finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null,
      };
    })
    .sort((a, b) => a.index - b.index);
}

/** A Response's output items folded into one choice: reasoning summaries, message text, calls. */
function responseChoices(output: Obj): TextChoice[] {
  const choice = emptyTextChoice(0);
  for (const item of arr(output.output).filter(isObject)) {
    if (item.type === 'reasoning') {
      choice.reasoning += arr(item.summary).filter(isObject).map((s) => str(s.text)).join('\n\n');
    } else if (item.type === 'message') {
      for (const part of arr(item.content).filter(isObject)) {
        if (part.type === 'output_text') {
          choice.content += str(part.text);
          choice.logprobs.push(...(arr(part.logprobs) as LogprobEntry[]));
        } else if (part.type === 'refusal') choice.content += str(part.refusal);
      }
    } else if (item.type === 'function_call') {
      choice.toolCalls.push({
        id: str(item.call_id) || str(item.id),
        type: 'function',
        function: { name: str(item.name), arguments: str(item.arguments) },
      });
    }
  }
  const status = str(output.status);
  const reason = isObject(output.incomplete_details) ? str(output.incomplete_details.reason) : '';
  choice.finishReason = status === 'incomplete' ? reason || 'incomplete' : choice.toolCalls.length > 0 ? 'tool_calls' : status || null;
  return [choice];
}

function messageChoices(output: Obj): TextChoice[] {
  const choice = emptyTextChoice(0);
  for (const block of arr(output.content).filter(isObject)) {
    if (block.type === 'text') choice.content += str(block.text);
    else if (block.type === 'thinking') choice.reasoning += str(block.thinking);
    else if (block.type === 'tool_use') {
      choice.toolCalls.push({ id: str(block.id), type: 'function', function: { name: str(block.name), arguments: JSON.stringify(block.input ?? {}) } });
    }
  }
  choice.finishReason = typeof output.stop_reason === 'string' ? output.stop_reason : null;
  return [choice];
}

/** UTF-8 bytes of a token (shared/ has no TextEncoder); null for a lone surrogate. */
function utf8Bytes(text: string): number[] | null {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    return null;
  }
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(encoded.charCodeAt(i));
  }
  return bytes;
}

/**
 * The legacy logprobs object (`tokens`, `token_logprobs`, `top_logprobs` as token → logprob
 * maps) as the chat-style entries the logprobs view reads.
 */
function legacyLogprobs(logprobs: unknown): LogprobEntry[] {
  if (!isObject(logprobs)) return [];
  const tokens = arr(logprobs.tokens);
  const values = arr(logprobs.token_logprobs);
  const tops = arr(logprobs.top_logprobs);
  return tokens.map((token, i) => {
    const t = str(token);
    const top = isObject(tops[i]) ? Object.entries(tops[i] as Obj) : [];
    return {
      token: t,
      logprob: num(values[i]),
      bytes: utf8Bytes(t),
      top_logprobs: top
        .map(([alt, lp]) => ({ token: alt, logprob: num(lp), bytes: utf8Bytes(alt) }))
        .sort((a, b) => b.logprob - a.logprob),
    };
  });
}

function completionChoices(output: Obj): TextChoice[] {
  return arr(output.choices)
    .filter(isObject)
    .map((c) => ({
      ...emptyTextChoice(num(c.index)),
      content: str(c.text),
      logprobs: legacyLogprobs(c.logprobs),
      finishReason: typeof c.finish_reason === 'string' ? c.finish_reason : null,
    }))
    .sort((a, b) => a.index - b.index);
}

const CHOICE_READERS: Record<OutputShape, (output: Obj) => TextChoice[]> = {
  chat: chatChoices,
  responses: responseChoices,
  messages: messageChoices,
  completions: completionChoices,
  complete: (output) => [{ ...emptyTextChoice(0), content: str(output.completion), finishReason: typeof output.stop_reason === 'string' ? output.stop_reason : null }],
  none: () => [],
};

/** The choices of a recorded answer of any interface (empty for non-text answers). */
export function choicesOf(endpoint: Endpoint, output: RunOutput | null | undefined): TextChoice[] {
  if (!isObject(output)) return [];
  return CHOICE_READERS[endpointInfo(endpoint)?.output ?? 'none'](output);
}

/**
 * Any interface's usage in the chat shape: Responses' input/output tokens and Messages'
 * input/output/cache-read tokens map onto prompt/completion/cached. Null when there is none.
 */
export function chatUsageOf(endpoint: Endpoint, usage: unknown): ChatUsage | null {
  if (!isObject(usage)) return null;
  if (typeof usage.prompt_tokens === 'number') return usage as unknown as ChatUsage;
  let prompt: number;
  let completion: number;
  let cached: number;
  let reasoning = 0;
  if (typeof usage.input_tokens === 'number' && endpointInfo(endpoint)?.output === 'messages') {
    cached = num(usage.cache_read_input_tokens);
    prompt = num(usage.input_tokens) + cached;
    completion = num(usage.output_tokens);
  } else if (typeof usage.input_tokens === 'number') {
    prompt = num(usage.input_tokens);
    cached = isObject(usage.input_tokens_details) ? num(usage.input_tokens_details.cached_tokens) : 0;
    reasoning = isObject(usage.output_tokens_details) ? num(usage.output_tokens_details.reasoning_tokens) : 0;
    completion = num(usage.output_tokens) - reasoning;
  } else {
    return null;
  }
  return {
    prompt_tokens: prompt,
    completion_tokens: Math.max(0, completion),
    total_tokens: typeof usage.total_tokens === 'number' ? usage.total_tokens : prompt + Math.max(0, completion) + reasoning,
    cost_in_usd_ticks: num(usage.cost_in_usd_ticks),
    num_sources_used: num(usage.num_sources_used),
    prompt_tokens_details: { text_tokens: prompt, audio_tokens: 0, image_tokens: 0, cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** Whether the raw usage carried the service's own cost (else the app estimates from prices). */
export function hasServiceCost(usage: unknown): boolean {
  return isObject(usage) && typeof usage.cost_in_usd_ticks === 'number';
}

function citationsOf(output: Obj): Citation[] {
  const out: Citation[] = [];
  for (const c of arr(output.citations)) {
    if (typeof c === 'string') out.push({ url: c });
    else if (isObject(c) && typeof c.url === 'string') out.push({ url: c.url, ...(typeof c.title === 'string' ? { title: c.title } : {}) });
  }
  for (const item of arr(output.output).filter(isObject)) {
    for (const part of arr(item.content).filter(isObject)) {
      for (const a of arr(part.annotations).filter(isObject)) {
        if (a.type === 'url_citation' && typeof a.url === 'string' && !out.some((c) => c.url === a.url)) {
          out.push({ url: a.url, ...(typeof a.title === 'string' ? { title: a.title } : {}) });
        }
      }
    }
  }
  return out;
}

/** The interface-specific facts of a recorded answer. */
export function metaOf(endpoint: Endpoint, output: RunOutput | null | undefined): TextRunMeta {
  if (!isObject(output)) return {};
  const meta: TextRunMeta = {};
  const citations = citationsOf(output);
  if (citations.length > 0) meta.citations = citations;
  const usage = isObject(output.usage) ? output.usage : null;
  if (usage && typeof usage.num_sources_used === 'number') meta.numSourcesUsed = usage.num_sources_used;
  const shape = endpointInfo(endpoint)?.output;
  if (shape === 'responses') {
    meta.responseId = str(output.id);
    meta.previousResponseId = typeof output.previous_response_id === 'string' ? output.previous_response_id : null;
    meta.stored = output.store !== false;
    const created = num(output.created_at);
    meta.expiresAt = meta.stored && created > 0 ? created * 1000 + RESPONSE_RETENTION_MS : null;
    meta.serviceStatus = str(output.status);
    meta.incompleteReason = isObject(output.incomplete_details) ? str(output.incomplete_details.reason) || null : null;
  } else if (shape === 'messages' || shape === 'complete') {
    meta.stopReason = typeof output.stop_reason === 'string' ? output.stop_reason : null;
    meta.stopSequence = typeof output.stop_sequence === 'string' ? output.stop_sequence : null;
  }
  return meta;
}

/** Total characters of output, to decide which of two sources of the same run has more. */
export function textOutputSize(choices: TextChoice[]): number {
  return choices.reduce((n, c) => n + c.content.length + c.reasoning.length + c.toolCalls.length, 0);
}

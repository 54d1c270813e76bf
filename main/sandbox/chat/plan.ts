/**
 * What each choice of a chat completion says, decided before anything is sent so plain, streamed
 * and deferred answers are identical: reasoning (reasoning models), then either tool calls or
 * content (text, JSON, or JSON matching a schema), cut at a stop sequence or the token limit.
 * Seeded by a hash of the request's generation-relevant fields, so the same request (and seed)
 * gives the same output, and `stop` / `max_tokens` only shorten what would have been said.
 */
import { LIMITS } from '../../../shared/limits';
import type { ChatRequest, LogprobEntry } from '../../../shared/wire/chat';
import type { LanguageEntry } from '../catalogue';
import { generateFromSchema } from '../generate/json-schema';
import { logprobsFor } from '../generate/logprobs';
import { hashSeed, Rng } from '../generate/rng';
import { echoRequest, synthAnswer, synthReasoning, synthToolFollowUp } from '../generate/text';
import { tokenize } from '../generate/tokenizer';
import { messageText, planToolCalls, type PlannedToolCall } from '../generate/tool-calls';
import { keywords, topicOf } from '../generate/topic';

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface ChoicePlan {
  index: number;
  /** Reasoning text; empty for non-reasoning models or effort `none`. */
  reasoning: string;
  reasoningTokens: string[];
  /** Null when the choice is a tool call. */
  content: string | null;
  contentTokens: string[];
  toolCalls: PlannedToolCall[];
  finishReason: FinishReason;
  logprobs: LogprobEntry[] | null;
}

const REASONING_TOKENS: Record<string, [number, number]> = {
  none: [0, 0],
  low: [20, 60],
  medium: [80, 160],
  high: [200, 400],
};

/** The seed of a request: everything that changes what a model would say, nothing that only shapes delivery. */
export function requestSeed(req: ChatRequest, model: LanguageEntry): number {
  const relevant = {
    model: model.id,
    messages: req.messages,
    tools: req.tools ?? null,
    tool_choice: req.tool_choice ?? null,
    response_format: req.response_format ?? null,
    temperature: req.temperature ?? null,
    top_p: req.top_p ?? null,
    seed: req.seed ?? null,
    frequency_penalty: req.frequency_penalty ?? null,
    presence_penalty: req.presence_penalty ?? null,
    reasoning_effort: req.reasoning_effort ?? null,
    parallel_tool_calls: req.parallel_tool_calls ?? null,
  };
  return hashSeed(JSON.stringify(relevant));
}

/** All `n` choices of a request. */
export function planChoices(req: ChatRequest, model: LanguageEntry): ChoicePlan[] {
  const seed = requestSeed(req, model);
  const n = req.n ?? 1;
  // At temperature 0 a model is greedy: every choice says the same thing.
  return Array.from({ length: n }, (_, index) => planChoice(req, model, new Rng(hashSeed(String(seed), req.temperature === 0 ? '0' : String(index))), index));
}

function planChoice(req: ChatRequest, model: LanguageEntry, rng: Rng, index: number): ChoicePlan {
  const lastUser = messageText([...req.messages].reverse().find((m) => m.role === 'user'));
  let reasoning = '';
  if (model.reasoning) {
    const [lo, hi] = REASONING_TOKENS[req.reasoning_effort ?? 'low'];
    reasoning = synthReasoning(lastUser, rng.fork('reasoning'), rng.int(lo, hi));
  }
  const base = { index, reasoning, reasoningTokens: tokenize(reasoning) };
  const toolCalls = planToolCalls(req, rng.fork('tools'));
  if (toolCalls.length > 0) {
    return { ...base, content: null, contentTokens: [], toolCalls, finishReason: 'tool_calls', logprobs: null };
  }
  const full = answerText(req, lastUser, rng.fork('answer'));
  const { text, tokens: contentTokens, finishReason } = truncate(full, req);
  const logprobs = req.logprobs ? logprobsFor(contentTokens, rng.fork('logprobs'), req.top_logprobs ?? 0) : null;
  return { ...base, content: text, contentTokens, toolCalls: [], finishReason, logprobs };
}

function answerText(req: ChatRequest, lastUser: string, rng: Rng): string {
  const format = req.response_format;
  const words = keywords(lastUser, 5);
  if (format?.type === 'json_schema') {
    return JSON.stringify(generateFromSchema(format.json_schema.schema, rng, { words }));
  }
  if (format?.type === 'json_object') {
    return JSON.stringify({ topic: topicOf(lastUser), answer: synthAnswer(lastUser, rng, 30).split('\n')[0], source: 'sandbox' });
  }
  const last = req.messages[req.messages.length - 1];
  if (last?.role === 'tool') {
    const call = req.messages
      .flatMap((m) => m.tool_calls ?? [])
      .find((c) => c.id === last.tool_call_id);
    return synthToolFollowUp(call?.function.name ?? 'tool', messageText(last), lastUser, rng);
  }
  return echoRequest(lastUser) ?? synthAnswer(lastUser, rng, rng.int(40, 180));
}

/**
 * Cuts before the first stop sequence (finish `stop`), then at the token limit (finish `length`).
 * Returns the tokens as cut: re-tokenizing a cut text could merge a split word into fewer tokens.
 */
function truncate(full: string, req: ChatRequest): { text: string; tokens: string[]; finishReason: FinishReason } {
  let text = full;
  const stops = typeof req.stop === 'string' ? [req.stop] : (req.stop ?? []);
  const cut = Math.min(...stops.map((s) => text.indexOf(s)).filter((i) => i >= 0), Infinity);
  if (cut !== Infinity) text = text.slice(0, cut);
  const limit = req.max_completion_tokens ?? req.max_tokens ?? LIMITS.defaultMaxOutputTokens;
  const tokens = tokenize(text);
  if (tokens.length > limit) {
    const kept = tokens.slice(0, limit);
    return { text: kept.join(''), tokens: kept, finishReason: 'length' };
  }
  return { text, tokens, finishReason: 'stop' };
}

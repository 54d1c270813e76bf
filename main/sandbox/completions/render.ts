/**
 * Planned legacy completions on the wire: one `text_completion` object, or the data-only chunk
 * sequence (wire-notes §1.2, legacy chunk): the echoed prompt first, then one chunk per token,
 * a final chunk per choice with `text: ""` and its finish reason (choices interleaved
 * round-robin), then the usage chunk with `choices: []` when include_usage is set.
 */
import type { ChatUsage } from '../../../shared/wire/chat';
import type { CompletionChoice, CompletionLogprobs, TextCompletion, TextCompletionChunk } from '../../../shared/wire/completions';
import type { CompletionPlan } from './plan';
import { roundRobin } from '../chat/render';

export interface TextCompletionMeta {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string | null;
}

function sliceLogprobs(lp: CompletionLogprobs | null, from: number, to: number): CompletionLogprobs | null {
  if (!lp) return null;
  return {
    tokens: lp.tokens.slice(from, to),
    token_logprobs: lp.token_logprobs.slice(from, to),
    top_logprobs: lp.top_logprobs ? lp.top_logprobs.slice(from, to) : null,
    text_offset: lp.text_offset.slice(from, to),
  };
}

/** The fields a response and each of its stream chunks both start with. */
function head(meta: TextCompletionMeta) {
  return { id: meta.id, object: 'text_completion' as const, created: meta.created, model: meta.model, system_fingerprint: meta.systemFingerprint };
}

/** The non-streamed response. */
export function toTextCompletion(meta: TextCompletionMeta, plans: readonly CompletionPlan[], usage: ChatUsage): TextCompletion {
  return {
    ...head(meta),
    choices: plans.map((p) => ({ index: p.index, text: p.echo + p.tokens.join(''), finish_reason: p.finishReason, logprobs: p.logprobs })),
    usage,
  };
}

function choiceChunks(p: CompletionPlan): CompletionChoice[] {
  const out: CompletionChoice[] = [];
  const echoed = p.echoTokens.length;
  if (p.echo !== '') out.push({ index: p.index, text: p.echo, finish_reason: null, logprobs: sliceLogprobs(p.logprobs, 0, echoed) });
  p.tokens.forEach((t, k) => {
    out.push({ index: p.index, text: t, finish_reason: null, logprobs: sliceLogprobs(p.logprobs, echoed + k, echoed + k + 1) });
  });
  out.push({ index: p.index, text: '', finish_reason: p.finishReason, logprobs: null });
  return out;
}

/** The choice deltas of all choices, interleaved round-robin (one chunk each). */
export function interleaveCompletions(plans: readonly CompletionPlan[]): CompletionChoice[] {
  return roundRobin(plans.map(choiceChunks)).flat();
}

/** A chunk around one choice delta (or none, for the usage chunk); `usage` undefined leaves the field out. */
export function toTextChunk(meta: TextCompletionMeta, choices: CompletionChoice[], usage: ChatUsage | null | undefined): TextCompletionChunk {
  return {
    ...head(meta),
    choices,
    ...(usage === undefined ? {} : { usage }),
  };
}

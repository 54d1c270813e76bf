/**
 * Planned choices on the wire: one `chat.completion` object, or the `chat.completion.chunk`
 * sequence of wire-notes §1.2 (same id on every chunk, role only on each choice's first delta,
 * reasoning before content, tool calls whole in one delta, a final `delta: {}` with the finish
 * reason, then the usage chunk with `choices: []` when asked for).
 */
import type {
  ChatChunkChoice,
  ChatChunkDelta,
  ChatCompletion,
  ChatCompletionChunk,
  ChatToolCall,
  ChatUsage,
} from '../../../shared/wire/chat';
import type { ChoicePlan } from './plan';

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  systemFingerprint: string;
  serviceTier: 'default' | 'priority';
}

function toolCalls(choice: ChoicePlan, withIndex: boolean): ChatToolCall[] {
  return choice.toolCalls.map((c, index) => ({
    id: c.id,
    type: 'function',
    ...(withIndex ? { index } : {}),
    function: { name: c.name, arguments: c.arguments },
  }));
}

/** The non-streamed completion. */
export function toCompletion(meta: CompletionMeta, choices: readonly ChoicePlan[], usage: ChatUsage): ChatCompletion {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: choices.map((c) => ({
      index: c.index,
      finish_reason: c.finishReason,
      logprobs: c.logprobs ? { content: c.logprobs } : null,
      message: {
        role: 'assistant',
        content: c.content,
        reasoning_content: c.reasoning === '' ? null : c.reasoning,
        refusal: null,
        tool_calls: c.toolCalls.length > 0 ? toolCalls(c, false) : null,
      },
    })),
    citations: null,
    output_files: null,
    service_tier: meta.serviceTier,
    system_fingerprint: meta.systemFingerprint,
    usage,
  };
}

/** The deltas of one choice, in order; the last one carries the finish reason. */
export function choiceDeltas(choice: ChoicePlan): ChatChunkChoice[] {
  const out: ChatChunkChoice[] = [];
  const push = (delta: ChatChunkDelta, extra: Partial<ChatChunkChoice> = {}): void => {
    out.push({ index: choice.index, delta: out.length === 0 ? { role: 'assistant', ...delta } : delta, finish_reason: null, ...extra });
  };
  for (const token of choice.reasoningTokens) push({ reasoning_content: token });
  if (choice.toolCalls.length > 0) {
    for (const call of toolCalls(choice, true)) push({ tool_calls: [call] });
  } else if (choice.contentTokens.length === 0) {
    push({ content: '' });
  } else {
    choice.contentTokens.forEach((token, i) => {
      push({ content: token }, choice.logprobs ? { logprobs: { content: [choice.logprobs[i]] } } : {});
    });
  }
  out.push({ index: choice.index, delta: {}, finish_reason: choice.finishReason });
  return out;
}

/** Interleaves the choices' deltas round-robin: one chunk per delta, as parallel generation looks. */
export function interleave(choices: readonly ChoicePlan[]): ChatChunkChoice[][] {
  return roundRobin(choices.map(choiceDeltas));
}

/** Round `k` holds the `k`-th item of every list that has one, in list order. */
export function roundRobin<T>(lists: readonly T[][]): T[][] {
  const rounds: T[][] = [];
  for (let step = 0; lists.some((l) => step < l.length); step++) {
    rounds.push(lists.filter((l) => step < l.length).map((l) => l[step]));
  }
  return rounds;
}

/** A chunk around one choice delta (or none, for the usage chunk). */
export function toChunk(meta: CompletionMeta, choices: ChatChunkChoice[], usage: ChatUsage | null | undefined): ChatCompletionChunk {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices,
    system_fingerprint: meta.systemFingerprint,
    ...(usage === undefined ? {} : { usage }),
  };
}

/**
 * Folds streamed `text_completion` chunks into the text completion a plain call would have
 * returned: per choice index the text, legacy logprobs (token lists concatenated) and finish
 * reason; plus the usage chunk's usage. result() may be called at any time (a cut stream).
 */
import type { ChatUsage } from '../../shared/wire/chat';
import type { CompletionLogprobs, TextCompletion, TextCompletionChunk } from '../../shared/wire/completions';

interface ChoiceParts {
  text: string[];
  finishReason: string | null;
  logprobs: CompletionLogprobs | null;
}

/** Accumulates one streamed text completion. */
export class CompletionsAssembler {
  private id = '';
  private created = 0;
  private model = '';
  private fingerprint: string | null = null;
  private usageValue: ChatUsage | null = null;
  private readonly choices = new Map<number, ChoiceParts>();
  private count = 0;

  push(chunk: TextCompletionChunk): void {
    this.count++;
    if (!this.id && typeof chunk.id === 'string') this.id = chunk.id;
    if (!this.created && typeof chunk.created === 'number') this.created = chunk.created;
    if (!this.model && typeof chunk.model === 'string') this.model = chunk.model;
    if (chunk.system_fingerprint) this.fingerprint = chunk.system_fingerprint;
    if (chunk.usage && typeof chunk.usage === 'object') this.usageValue = chunk.usage;
    for (const c of Array.isArray(chunk.choices) ? chunk.choices : []) {
      const index = typeof c.index === 'number' ? c.index : 0;
      let parts = this.choices.get(index);
      if (!parts) {
        parts = { text: [], finishReason: null, logprobs: null };
        this.choices.set(index, parts);
      }
      if (typeof c.text === 'string') parts.text.push(c.text);
      if (c.finish_reason) parts.finishReason = c.finish_reason;
      if (c.logprobs) parts.logprobs = mergeLogprobs(parts.logprobs, c.logprobs);
    }
  }

  /** How many chunks were pushed. */
  get chunks(): number {
    return this.count;
  }

  /** The usage chunk's usage, or null when none arrived. */
  usage(): ChatUsage | null {
    return this.usageValue;
  }

  /** The completion so far; choices in index order. `usage` is null when none arrived. */
  result(): TextCompletion {
    return {
      id: this.id,
      object: 'text_completion',
      created: this.created,
      model: this.model,
      system_fingerprint: this.fingerprint,
      choices: [...this.choices.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([index, c]) => ({ index, text: c.text.join(''), finish_reason: c.finishReason, logprobs: c.logprobs })),
      usage: this.usageValue as ChatUsage,
    };
  }
}

function mergeLogprobs(a: CompletionLogprobs | null, b: CompletionLogprobs): CompletionLogprobs {
  if (!a) return { ...b };
  return {
    tokens: [...(a.tokens ?? []), ...(b.tokens ?? [])],
    token_logprobs: [...(a.token_logprobs ?? []), ...(b.token_logprobs ?? [])],
    top_logprobs: a.top_logprobs || b.top_logprobs ? [...(a.top_logprobs ?? []), ...(b.top_logprobs ?? [])] : null,
    text_offset: [...(a.text_offset ?? []), ...(b.text_offset ?? [])],
  };
}

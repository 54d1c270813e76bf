/**
 * Chat usage with every detail field and its cost in ticks (shared/cost.ts), from the prompt
 * count, the cached prefix and the planned choices. Completion tokens are the visible output
 * (content or tool-call arguments) of all choices; reasoning tokens are counted apart but billed
 * as completion and included in total_tokens (wire-notes §1.2).
 */
import { costInTicks } from '../../../shared/cost';
import type { ChatUsage } from '../../../shared/wire/chat';
import type { LanguageEntry } from '../catalogue';
import { countTokens } from '../generate/tokenizer';
import type { ChoicePlan } from './plan';
import type { PromptCount } from './prompt';

/** Visible output tokens of one choice. */
export function choiceOutputTokens(choice: ChoicePlan): number {
  if (choice.toolCalls.length === 0) return choice.contentTokens.length;
  return choice.toolCalls.reduce((n, c) => n + countTokens(c.name) + countTokens(c.arguments) + 3, 0);
}

export function buildUsage(model: LanguageEntry, prompt: PromptCount, cachedTokens: number, choices: readonly ChoicePlan[]): ChatUsage {
  const completion = choices.reduce((n, c) => n + choiceOutputTokens(c), 0);
  const reasoning = choices.reduce((n, c) => n + c.reasoningTokens.length, 0);
  const cached = Math.min(cachedTokens, prompt.textTokens);
  const promptTokens = prompt.textTokens + prompt.imageTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion + reasoning,
    prompt_tokens_details: { text_tokens: prompt.textTokens, audio_tokens: 0, image_tokens: prompt.imageTokens, cached_tokens: cached },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    num_sources_used: 0,
    cost_in_usd_ticks: costInTicks(model, {
      promptTokens: prompt.textTokens,
      cachedTokens: cached,
      imageTokens: prompt.imageTokens,
      completionTokens: completion + reasoning,
    }),
  };
}

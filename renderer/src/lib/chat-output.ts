/**
 * Assembling a run's choices from stream deltas (or from a finished answer of any text
 * interface), one object per choice. These objects are mutated in place and kept out of deep
 * reactivity: the store triggers a shallow ref once per frame instead of Vue tracking every
 * appended character.
 */
import type { ChatToolCall } from '@shared/wire/chat';
import type { TextStreamChunk } from '@shared/contract/text';
import type { RunRecord } from '@shared/contract/runs';
import { choicesOf, emptyTextChoice, textOutputSize, type TextChoice } from '@shared/text-output';

export type ChoiceOutput = TextChoice;

export type DeltaChunk = Extract<TextStreamChunk, { type: 'delta' }>;

export const emptyChoice = emptyTextChoice;

/**
 * Adds tool-call deltas: the service sends each call whole, but OpenAI-style fragments (same
 * index, later pieces carry only `arguments`) are accepted too.
 */
function mergeToolCalls(into: ChatToolCall[], incoming: ChatToolCall[]): void {
  for (const call of incoming) {
    const existing = call.index !== undefined ? into.find((c) => c.index === call.index) : undefined;
    if (existing && (!call.id || call.id === existing.id)) {
      existing.function.arguments += call.function?.arguments ?? '';
      if (call.function?.name) existing.function.name = call.function.name;
    } else {
      into.push({ ...call, function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' } });
    }
  }
}

/** Applies one delta to the choice list (growing it for `n` > 1), mutating in place. */
export function applyDelta(choices: ChoiceOutput[], delta: DeltaChunk): void {
  while (choices.length <= delta.choice) choices.push(emptyChoice(choices.length));
  const target = choices[delta.choice]!;
  if (delta.reasoning) target.reasoning += delta.reasoning;
  if (delta.content) target.content += delta.content;
  if (delta.toolCalls?.length) mergeToolCalls(target.toolCalls, delta.toolCalls);
  if (delta.logprobs?.length) target.logprobs.push(...delta.logprobs);
  if (delta.finishReason !== undefined && delta.finishReason !== null) target.finishReason = delta.finishReason;
}

/** The choices of a recorded run of any text interface, as the playground shows them. */
export function choicesFromRecord(record: Pick<RunRecord, 'endpoint' | 'output'>): ChoiceOutput[] {
  return choicesOf(record.endpoint, record.output);
}

/** Total characters of output, to decide which of two sources of the same run has more. */
export const outputSize = textOutputSize;

/**
 * The streamed form of a planned response (wire-notes §1.3): response.created, in_progress, then
 * per output item its added/done pair around the item's own events (reasoning summary part and
 * text deltas; web search progress; message content part, text deltas, url_citation annotations;
 * function calls whole), then response.completed or response.incomplete. Sequence numbers run
 * from 0 in steps of 1. Token deltas are marked `paced` so the route spaces them like a model.
 */
import type { ResponseStreamEvent } from '../../../shared/wire/responses';
import type { ResponsePlan } from './plan';
import { functionCallItems, messageItem, outputItems, reasoningItem, responseObject, textPart, webSearchItem, type ResponseMeta } from './render';
import type { ResponseUsage } from '../../../shared/wire/responses';
import type { StreamErrorForm } from '../sse';

export interface StreamStep {
  event: ResponseStreamEvent;
  /** A token delta: the writer pauses after it. */
  paced: boolean;
}

type Unnumbered = ResponseStreamEvent extends infer E ? (E extends ResponseStreamEvent ? Omit<E, 'sequence_number'> : never) : never;

/** Every event of the stream, numbered. */
export function streamSteps(meta: ResponseMeta, plan: ResponsePlan, usage: ResponseUsage, completedAt: number): StreamStep[] {
  const steps: StreamStep[] = [];
  const push = (event: Unnumbered, paced = false): void => {
    steps.push({ event: { ...event, sequence_number: steps.length } as ResponseStreamEvent, paced });
  };
  const start = responseObject(meta, { status: 'in_progress', output: [], usage: null, completedAt: null });
  push({ type: 'response.created', response: start });
  push({ type: 'response.in_progress', response: start });
  const final = outputItems(meta, plan);
  let index = 0;

  const reasoning = reasoningItem(meta, plan, 'in_progress', false);
  if (reasoning) {
    const ref = { item_id: reasoning.id, output_index: index, summary_index: 0 };
    push({ type: 'response.output_item.added', output_index: index, item: reasoning });
    push({ type: 'response.reasoning_summary_part.added', ...ref, part: { type: 'summary_text', text: '' } });
    for (const token of plan.choice.reasoningTokens) push({ type: 'response.reasoning_summary_text.delta', ...ref, delta: token }, true);
    push({ type: 'response.reasoning_summary_text.done', ...ref, text: plan.choice.reasoning });
    push({ type: 'response.reasoning_summary_part.done', ...ref, part: { type: 'summary_text', text: plan.choice.reasoning } });
    push({ type: 'response.output_item.done', output_index: index, item: final[index] });
    index += 1;
  }

  const search = webSearchItem(meta, plan, 'in_progress');
  if (search) {
    const ref = { item_id: search.id, output_index: index };
    push({ type: 'response.output_item.added', output_index: index, item: search });
    push({ type: 'response.web_search_call.in_progress', ...ref });
    push({ type: 'response.web_search_call.searching', ...ref });
    push({ type: 'response.web_search_call.completed', ...ref });
    push({ type: 'response.output_item.done', output_index: index, item: final[index] });
    index += 1;
  }

  const message = messageItem(meta, plan, 'in_progress');
  if (message) {
    const ref = { item_id: message.id, output_index: index, content_index: 0 };
    push({ type: 'response.output_item.added', output_index: index, item: { ...message, content: [] } });
    push({ type: 'response.content_part.added', ...ref, part: textPart(plan, '', false) });
    for (const token of plan.choice.contentTokens) push({ type: 'response.output_text.delta', ...ref, delta: token, logprobs: [] }, true);
    plan.annotations.forEach((annotation, i) => push({ type: 'response.output_text.annotation.added', ...ref, annotation_index: i, annotation }));
    push({ type: 'response.output_text.done', ...ref, text: plan.choice.content ?? '', logprobs: [] });
    push({ type: 'response.content_part.done', ...ref, part: textPart(plan, plan.choice.content ?? '', true) });
    push({ type: 'response.output_item.done', output_index: index, item: final[index] });
    index += 1;
  }

  for (const call of functionCallItems(meta, plan)) {
    // Whole item in added/done, no argument deltas: the form every client of the service reads.
    push({ type: 'response.output_item.added', output_index: index, item: { ...call, status: 'in_progress' } }, true);
    push({ type: 'response.output_item.done', output_index: index, item: call });
    index += 1;
  }

  const status = plan.incomplete ? 'incomplete' : 'completed';
  const end = responseObject(meta, { status, output: final, usage, completedAt: plan.incomplete ? null : completedAt });
  push({ type: plan.incomplete ? 'response.incomplete' : 'response.completed', response: end });
  return steps;
}

/** A service error mid-stream (wire-notes §1.3): the bare `error` event, numbered after the events sent. */
export const responsesStreamError: StreamErrorForm = (message, sent) => {
  const event: ResponseStreamEvent = { type: 'error', code: 'overloaded', message, param: null, sequence_number: sent };
  return [{ event: event.type, data: event }];
};

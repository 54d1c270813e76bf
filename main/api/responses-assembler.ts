/**
 * Folds Responses stream events into the Response a plain call would have returned: the last
 * response snapshot (created / in_progress / completed / incomplete / failed) with its output
 * items, built from item and part events when the final snapshot has not arrived (a cut stream).
 * Unknown event types are ignored here (the caller keeps them raw).
 */
import type { LogprobEntry } from '../../shared/wire/chat';
import type { ResponseObject, ResponseStreamEvent } from '../../shared/wire/responses';
import { isObject } from '../../shared/is-object';

type Obj = Record<string, unknown>;

interface ItemParts {
  item: Obj;
  /** Text pieces per summary index (reasoning) or content index (message). */
  texts: Map<number, string[]>;
  logprobs: Map<number, LogprobEntry[]>;
  annotations: Map<number, unknown[]>;
  args: string[];
  done: boolean;
}

/** Accumulates one streamed response; result() may be called at any time. */
export class ResponsesAssembler {
  private snapshot: Obj | null = null;
  private final = false;
  private readonly items = new Map<number, ItemParts>();
  private count = 0;

  /** Adds one event (in arrival order). */
  push(event: ResponseStreamEvent): void {
    this.count++;
    const e = event as unknown as Obj;
    const type = typeof e.type === 'string' ? e.type : '';
    if (/^response\.(created|in_progress|completed|incomplete|failed)$/.test(type) && isObject(e.response)) {
      this.snapshot = e.response;
      this.final = !/created|in_progress/.test(type);
      return;
    }
    const index = typeof e.output_index === 'number' ? e.output_index : -1;
    if (index < 0) return;
    if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      if (!isObject(e.item)) return;
      const parts = this.part(index, e.item);
      parts.item = { ...e.item };
      if (type === 'response.output_item.done') parts.done = true;
      return;
    }
    const parts = this.items.get(index);
    if (!parts || parts.done) return;
    const at = typeof e.summary_index === 'number' ? e.summary_index : typeof e.content_index === 'number' ? e.content_index : 0;
    switch (type) {
      case 'response.reasoning_summary_text.delta':
      case 'response.output_text.delta':
        if (typeof e.delta === 'string') push(parts.texts, at, e.delta);
        if (Array.isArray(e.logprobs) && e.logprobs.length > 0) push(parts.logprobs, at, ...(e.logprobs as LogprobEntry[]));
        break;
      case 'response.output_text.annotation.added':
        if (e.annotation !== undefined) push(parts.annotations, at, e.annotation);
        break;
      case 'response.function_call_arguments.delta':
        if (typeof e.delta === 'string') parts.args.push(e.delta);
        break;
      case 'response.function_call_arguments.done':
        if (typeof e.arguments === 'string') parts.args = [e.arguments];
        break;
      default:
        break;
    }
  }

  /** How many events were pushed (0 = nothing arrived). */
  get events(): number {
    return this.count;
  }

  /** The response id as soon as `response.created` arrived. */
  get id(): string | null {
    return this.snapshot && typeof this.snapshot.id === 'string' ? this.snapshot.id : null;
  }

  /** The response so far: the final snapshot when one arrived with output, else assembled. */
  result(): ResponseObject {
    const base: Obj = this.snapshot ?? { object: 'response', status: 'in_progress', output: [] };
    if (this.final && Array.isArray(base.output) && (base.output.length > 0 || this.items.size === 0)) return base as unknown as ResponseObject;
    const output = [...this.items.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => this.itemOf(p));
    return { ...base, output } as unknown as ResponseObject;
  }

  private part(index: number, item: Obj): ItemParts {
    let parts = this.items.get(index);
    if (!parts) {
      parts = { item, texts: new Map(), logprobs: new Map(), annotations: new Map(), args: [], done: false };
      this.items.set(index, parts);
    }
    return parts;
  }

  private itemOf(p: ItemParts): Obj {
    if (p.done) return p.item;
    const item: Obj = { ...p.item };
    if (item.type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? [...(item.summary as Obj[])] : [];
      for (const [i, texts] of p.texts) summary[i] = { type: 'summary_text', text: texts.join('') };
      item.summary = summary.map((s) => s ?? { type: 'summary_text', text: '' });
    } else if (item.type === 'message') {
      const content = Array.isArray(item.content) ? [...(item.content as Obj[])] : [];
      const indices = new Set([...p.texts.keys(), ...p.logprobs.keys(), ...p.annotations.keys()]);
      for (const i of indices) {
        content[i] = {
          ...(content[i] ?? { type: 'output_text' }),
          text: (p.texts.get(i) ?? []).join(''),
          logprobs: p.logprobs.get(i) ?? [],
          annotations: p.annotations.get(i) ?? [],
        };
      }
      item.content = content.map((c) => c ?? { type: 'output_text', text: '', logprobs: [], annotations: [] });
    } else if (item.type === 'function_call' && p.args.length > 0) {
      item.arguments = p.args.join('');
    }
    return item;
  }
}

function push<T>(map: Map<number, T[]>, at: number, ...values: T[]): void {
  const list = map.get(at);
  if (list) list.push(...values);
  else map.set(at, [...values]);
}

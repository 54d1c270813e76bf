/**
 * A recorded Messages stream (the run's captured SSE events) folded into a timeline: when the
 * message started, each content block by index with its deltas counted per kind and their
 * first/last arrival times, the message_delta with the stop reason, message_stop, pings, errors.
 * Lines that are not JSON (e.g. `[DONE]`) or of unknown type are counted, never fatal.
 */
import type { CapturedEvent } from '@shared/contract/runs';
import { isObject } from '@shared/is-object';

export interface TimelineBlock {
  index: number;
  /** `text`, `thinking`, `tool_use`, … from content_block_start (`?` if it never started). */
  type: string;
  /** The tool's name for tool_use blocks. */
  name?: string;
  startT: number | null;
  stopT: number | null;
  /** Delta counts by delta type (`text_delta: 12`). */
  deltas: Record<string, number>;
  deltaCount: number;
  firstDeltaT: number | null;
  lastDeltaT: number | null;
  /** Characters the deltas carried (text, thinking, partial_json). */
  chars: number;
}

export interface MessagesTimeline {
  start: { t: number; model: string; inputTokens: number | null } | null;
  blocks: TimelineBlock[];
  delta: { t: number; stopReason: string | null; stopSequence: string | null; outputTokens: number | null } | null;
  stopT: number | null;
  doneT: number | null;
  pings: number;
  errors: Array<{ t: number; message: string }>;
  /** Events that were not Messages stream events. */
  other: number;
}

type Obj = Record<string, unknown>;
const numOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function parse(data: string): Obj | null {
  try {
    const value: unknown = JSON.parse(data);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function blockAt(blocks: Map<number, TimelineBlock>, index: number): TimelineBlock {
  let b = blocks.get(index);
  if (!b) {
    b = { index, type: '?', startT: null, stopT: null, deltas: {}, deltaCount: 0, firstDeltaT: null, lastDeltaT: null, chars: 0 };
    blocks.set(index, b);
  }
  return b;
}

function deltaChars(delta: Obj): number {
  for (const key of ['text', 'thinking', 'partial_json', 'signature']) {
    if (typeof delta[key] === 'string') return (delta[key] as string).length;
  }
  return 0;
}

/** The timeline of a Messages run's events (in arrival order). */
export function buildMessagesTimeline(events: readonly CapturedEvent[]): MessagesTimeline {
  const out: MessagesTimeline = { start: null, blocks: [], delta: null, stopT: null, doneT: null, pings: 0, errors: [], other: 0 };
  const blocks = new Map<number, TimelineBlock>();
  for (const { t, data } of events) {
    if (data.trim() === '[DONE]') {
      out.doneT = t;
      continue;
    }
    const e = parse(data);
    const index = typeof e?.index === 'number' ? e.index : 0;
    switch (e?.type) {
      case 'message_start': {
        const m = isObject(e.message) ? e.message : {};
        const usage = isObject(m.usage) ? m.usage : {};
        out.start = { t, model: typeof m.model === 'string' ? m.model : '', inputTokens: numOrNull(usage.input_tokens) };
        break;
      }
      case 'content_block_start': {
        const b = blockAt(blocks, index);
        const cb = isObject(e.content_block) ? e.content_block : {};
        b.type = typeof cb.type === 'string' ? cb.type : '?';
        if (typeof cb.name === 'string') b.name = cb.name;
        b.startT = t;
        break;
      }
      case 'content_block_delta': {
        const b = blockAt(blocks, index);
        const delta = isObject(e.delta) ? e.delta : {};
        const kind = typeof delta.type === 'string' ? delta.type : 'delta';
        b.deltas[kind] = (b.deltas[kind] ?? 0) + 1;
        b.deltaCount += 1;
        b.chars += deltaChars(delta);
        b.firstDeltaT ??= t;
        b.lastDeltaT = t;
        break;
      }
      case 'content_block_stop':
        blockAt(blocks, index).stopT = t;
        break;
      case 'message_delta': {
        const d = isObject(e.delta) ? e.delta : {};
        const usage = isObject(e.usage) ? e.usage : {};
        out.delta = { t, stopReason: strOrNull(d.stop_reason), stopSequence: strOrNull(d.stop_sequence), outputTokens: numOrNull(usage.output_tokens) };
        break;
      }
      case 'message_stop':
        out.stopT = t;
        break;
      case 'ping':
        out.pings += 1;
        break;
      case 'error': {
        const err = isObject(e.error) ? e.error : {};
        out.errors.push({ t, message: [strOrNull(err.type), strOrNull(err.message)].filter(Boolean).join(': ') || 'error' });
        break;
      }
      default:
        out.other += 1;
    }
  }
  out.blocks = [...blocks.values()].sort((a, b) => a.index - b.index);
  return out;
}

/** `12 text_delta, 3 signature_delta`. */
export function describeDeltas(block: TimelineBlock): string {
  const parts = Object.entries(block.deltas).map(([kind, n]) => `${n} ${kind}`);
  return parts.length ? parts.join(', ') : 'no deltas';
}

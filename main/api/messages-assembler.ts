/**
 * Folds Messages stream events into the Message a plain call would have returned: the
 * `message_start` message, content blocks in index order (thinking, text, tool_use with its input
 * parsed from the concatenated `partial_json`; the raw string is kept when it does not parse),
 * then the stop reason and usage from `message_delta`. result() may be called at any time. It is
 * the one place a tool_use block's streamed input is put together: the service asks toolCall()
 * for it when the block stops.
 */
import type { MessagesResponse, MessagesStreamEvent } from '../../shared/wire/messages';
import { isObject } from '../../shared/is-object';

type Obj = Record<string, unknown>;

interface BlockParts {
  block: Obj;
  text: string[];
  thinking: string[];
  signature: string[];
  json: string[];
}

/** Accumulates one streamed Message. */
export class MessagesAssembler {
  private message: Obj | null = null;
  private readonly blocks = new Map<number, BlockParts>();
  private count = 0;

  /** Adds one event (in arrival order); unknown types are ignored. */
  push(event: MessagesStreamEvent): void {
    this.count++;
    const e = event as unknown as Obj;
    switch (e.type) {
      case 'message_start':
        if (isObject(e.message)) this.message = { ...e.message, usage: isObject(e.message.usage) ? { ...e.message.usage } : e.message.usage };
        break;
      case 'content_block_start': {
        if (!isObject(e.content_block)) break;
        this.blocks.set(indexOf(e), { block: { ...e.content_block }, text: [], thinking: [], signature: [], json: [] });
        break;
      }
      case 'content_block_delta': {
        const parts = this.blocks.get(indexOf(e));
        const d = isObject(e.delta) ? e.delta : {};
        if (!parts) break;
        if (d.type === 'text_delta' && typeof d.text === 'string') parts.text.push(d.text);
        else if (d.type === 'thinking_delta' && typeof d.thinking === 'string') parts.thinking.push(d.thinking);
        else if (d.type === 'signature_delta' && typeof d.signature === 'string') parts.signature.push(d.signature);
        else if (d.type === 'input_json_delta' && typeof d.partial_json === 'string') parts.json.push(d.partial_json);
        break;
      }
      case 'message_delta': {
        const m = (this.message ??= { type: 'message', role: 'assistant', content: [] });
        if (isObject(e.delta)) {
          if ('stop_reason' in e.delta) m.stop_reason = e.delta.stop_reason;
          if ('stop_sequence' in e.delta) m.stop_sequence = e.delta.stop_sequence;
        }
        if (isObject(e.usage)) m.usage = { ...(isObject(m.usage) ? m.usage : {}), ...e.usage };
        break;
      }
      default:
        break;
    }
  }

  /** How many events were pushed (0 = nothing arrived). */
  get events(): number {
    return this.count;
  }

  /**
   * The tool_use block at `index` as a call: its input as JSON text (the streamed `partial_json`
   * joined, else the start event's non-empty input, else `{}`). Null for any other block.
   */
  toolCall(index: number): { id: string; name: string; arguments: string } | null {
    const parts = this.blocks.get(index);
    if (!parts || parts.block.type !== 'tool_use') return null;
    const b = parts.block;
    const started = isObject(b.input) && Object.keys(b.input).length > 0 ? JSON.stringify(b.input) : '';
    return { id: String(b.id ?? ''), name: String(b.name ?? ''), arguments: parts.json.join('') || started || '{}' };
  }

  /** The Message so far; blocks in index order. */
  result(): MessagesResponse {
    const content = [...this.blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => blockOf(p));
    return { ...(this.message ?? { type: 'message', role: 'assistant', stop_reason: null, stop_sequence: null }), content } as unknown as MessagesResponse;
  }
}

function indexOf(e: Obj): number {
  return typeof e.index === 'number' ? e.index : 0;
}

function blockOf(p: BlockParts): Obj {
  const block = { ...p.block };
  if (block.type === 'text') block.text = str(block.text) + p.text.join('');
  else if (block.type === 'thinking') {
    block.thinking = str(block.thinking) + p.thinking.join('');
    if (p.signature.length > 0) block.signature = str(block.signature) + p.signature.join('');
  } else if (block.type === 'tool_use' && p.json.length > 0) {
    const raw = p.json.join('');
    try {
      block.input = JSON.parse(raw) as unknown;
    } catch {
      block.input = raw;
    }
  }
  return block;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

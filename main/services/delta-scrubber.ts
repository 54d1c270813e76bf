/**
 * Masks a key that a service spreads over several stream deltas. Each event the client returns
 * is already scrubbed, but the page joins the deltas' text (and a chat tool call's argument
 * pieces, by index), so `sk-ab` in one delta and `c123` in the next would show the whole key.
 * Each text (a choice's content, its reasoning, each tool call's arguments) goes through its own
 * StreamScrubber: a tail that could start a key is held until the next piece or the end.
 */
import type { SecretScrubber, StreamScrubber } from '../api/secret-scrubber';
import type { ChatToolCall } from '../../shared/wire/chat';
import type { TextStreamChunk } from '../../shared/contract/text';

export type Delta = Extract<TextStreamChunk, { type: 'delta' }>;

/** One text of one choice whose pieces the page joins. */
interface Piece {
  choice: number;
  field: 'content' | 'reasoning' | 'tool';
  /** The tool call's index, for `tool`. */
  index?: number;
  stream: StreamScrubber;
}

export class DeltaScrubber {
  private readonly pieces = new Map<string, Piece>();

  constructor(private readonly scrubber: SecretScrubber) {}

  /** The delta as it may be sent now; null when all it carried is held back for the moment. */
  scrub(delta: Delta): Delta | null {
    if (!this.scrubber.active) return delta;
    const out: Delta = { ...delta };
    for (const field of ['content', 'reasoning'] as const) {
      const text = delta[field];
      if (text) out[field] = this.piece(delta.choice, field).stream.push(text);
      if (!out[field]) delete out[field];
    }
    if (delta.toolCalls?.length) out.toolCalls = delta.toolCalls.map((call) => this.toolCall(delta.choice, call));
    // The choice ends here: nothing more can complete a key, so what was held goes with it.
    if (delta.finishReason !== undefined) this.release(out, delta.choice);
    const empty = !out.content && !out.reasoning && !out.toolCalls?.length && !out.logprobs?.length && out.finishReason === undefined;
    return empty ? null : out;
  }

  /** The stream ended: what is still held, as deltas (masked; it can no longer become a key). */
  end(): Delta[] {
    const choices = new Set([...this.pieces.values()].map((p) => p.choice));
    const out: Delta[] = [];
    for (const choice of choices) {
      const delta: Delta = { type: 'delta', choice };
      this.release(delta, choice);
      if (delta.content || delta.reasoning || delta.toolCalls?.length) out.push(delta);
    }
    return out;
  }

  /** A tool call piece: arguments of an indexed (streamed) call are joined by the page, so streamed. */
  private toolCall(choice: number, call: ChatToolCall): ChatToolCall {
    const args = call.function?.arguments;
    if (call.index === undefined || !args) return call;
    return { ...call, function: { ...call.function, arguments: this.piece(choice, 'tool', call.index).stream.push(args) } };
  }

  /** Adds to `delta` the held tails of `choice`'s texts (ending their streams). */
  private release(delta: Delta, choice: number): void {
    for (const [key, piece] of this.pieces) {
      if (piece.choice !== choice) continue;
      this.pieces.delete(key);
      const rest = piece.stream.end();
      if (!rest) continue;
      if (piece.field === 'tool') {
        // No id: the page appends it to the call with the same index.
        (delta.toolCalls ??= []).push({ id: '', type: 'function', index: piece.index, function: { name: '', arguments: rest } });
      } else {
        delta[piece.field] = (delta[piece.field] ?? '') + rest;
      }
    }
  }

  private piece(choice: number, field: Piece['field'], index?: number): Piece {
    const key = `${choice}:${field}:${index ?? ''}`;
    let piece = this.pieces.get(key);
    if (!piece) this.pieces.set(key, (piece = { choice, field, index, stream: this.scrubber.stream() }));
    return piece;
  }
}

/**
 * Barge-in: the caller speaks while the model's response is still going. In server VAD mode the
 * session cancels the response (`response.done` with `status: "cancelled"`), stops sending its
 * audio at once and keeps only the audio it had sent; the client then truncates the item to what
 * it actually played (`conversation.item.truncate`). In manual mode nothing is decided here: the
 * client sends `response.cancel` itself.
 *
 * The tracker only counts: the session tells it when a response starts, each audio delta it sent
 * (in milliseconds of the output format) and when the response ends; on `speech_started` it says
 * whether to cancel, and how much audio of which item went out.
 */

export interface BargeIn {
  type: 'cancel_response';
  responseId: string;
  /** The assistant item whose audio was cut (null: the response had sent no audio item yet). */
  itemId: string | null;
  /** Milliseconds of that item's audio sent before the cut (what the client can have played at most). */
  audioSentMs: number;
  /** For `response.done`: `status` and `status_details` as OpenAI Realtime sends them. */
  status: 'cancelled';
  statusDetails: { type: 'cancelled'; reason: 'turn_detected' };
}

interface InFlight {
  responseId: string;
  itemId: string | null;
  /** Audio sent per item (a response may speak more than one item). */
  sentMs: Map<string, number>;
}

export class ResponseTracker {
  private current: InFlight | null = null;

  get inProgress(): boolean {
    return this.current !== null;
  }

  get responseId(): string | null {
    return this.current?.responseId ?? null;
  }

  /** `response.created` was sent. A response still in flight is forgotten (the session ended it). */
  started(responseId: string): void {
    this.current = { responseId, itemId: null, sentMs: new Map() };
  }

  /** An `response.output_audio.delta` of `ms` milliseconds for `itemId` was sent. */
  audioSent(itemId: string, ms: number): void {
    if (!this.current) return;
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`audio delta of ${ms} ms`);
    this.current.itemId = itemId;
    this.current.sentMs.set(itemId, (this.current.sentMs.get(itemId) ?? 0) + ms);
  }

  /** Milliseconds of `itemId`'s audio sent so far in the current response. */
  sentMs(itemId: string): number {
    return this.current?.sentMs.get(itemId) ?? 0;
  }

  /**
   * `response.done` was sent (completed, cancelled or failed). With its id, a late done of an
   * earlier response (one barge-in already ended) leaves a newer one alone.
   */
  finished(responseId?: string): void {
    if (responseId !== undefined && this.current?.responseId !== responseId) return;
    this.current = null;
  }

  /**
   * The detector heard speech start. In server VAD mode with a response in flight: cancel it (the
   * tracker then counts it as finished). Otherwise null, and with `interrupt_response: false`.
   */
  speechStarted(mode: 'server_vad' | 'manual', interruptResponse = true): BargeIn | null {
    const cur = this.current;
    if (mode !== 'server_vad' || !interruptResponse || !cur) return null;
    this.current = null;
    return {
      type: 'cancel_response',
      responseId: cur.responseId,
      itemId: cur.itemId,
      audioSentMs: cur.itemId ? (cur.sentMs.get(cur.itemId) ?? 0) : 0,
      status: 'cancelled',
      statusDetails: { type: 'cancelled', reason: 'turn_detected' },
    };
  }
}

/** Milliseconds of audio in `bytes` of an output format (PCM16 at `rate`, or G.711 at 8 kHz). */
export function audioMs(bytes: number, format: { type: 'audio/pcm'; rate: number } | { type: 'audio/pcmu' } | { type: 'audio/pcma' }): number {
  const bytesPerSecond = format.type === 'audio/pcm' ? format.rate * 2 : 8000;
  return (bytes * 1000) / bytesPerSecond;
}

/**
 * Coalesces stream deltas so the renderer gets about one message per frame instead of one per
 * token: text of the same choice is concatenated; tool calls and finish reasons flush at once.
 */
import type { ChatStreamChunk } from '../../shared/families/chat/contract';

type Delta = Extract<ChatStreamChunk, { type: 'delta' }>;

export class DeltaBatcher {
  private pending = new Map<number, Delta>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (chunk: ChatStreamChunk) => void,
    private readonly intervalMs = 16,
  ) {}

  push(delta: Delta): void {
    const current = this.pending.get(delta.choice);
    if (!current) {
      this.pending.set(delta.choice, { ...delta });
    } else {
      if (delta.content) current.content = (current.content ?? '') + delta.content;
      if (delta.reasoning) current.reasoning = (current.reasoning ?? '') + delta.reasoning;
      if (delta.logprobs) current.logprobs = [...(current.logprobs ?? []), ...delta.logprobs];
      if (delta.toolCalls) current.toolCalls = [...(current.toolCalls ?? []), ...delta.toolCalls];
      if (delta.finishReason !== undefined) current.finishReason = delta.finishReason;
    }
    if (delta.toolCalls || delta.finishReason) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    for (const delta of batch) this.emit(delta);
  }

  dispose(): void {
    this.flush();
  }
}

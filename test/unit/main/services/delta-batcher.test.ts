import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatStreamChunk } from '../../../../shared/families/chat/contract';
import { DeltaBatcher } from '../../../../main/services/delta-batcher';

describe('DeltaBatcher', () => {
  let sent: ChatStreamChunk[];
  let batcher: DeltaBatcher;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    batcher = new DeltaBatcher((c) => sent.push(c), 16);
  });
  afterEach(() => vi.useRealTimers());

  it('joins the text of many token deltas into one message per interval, per choice', () => {
    for (const t of ['Hel', 'lo', ' wor', 'ld']) batcher.push({ type: 'delta', choice: 0, content: t });
    batcher.push({ type: 'delta', choice: 1, reasoning: 'thinking' });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(16);
    expect(sent).toEqual([
      { type: 'delta', choice: 0, content: 'Hello world' },
      { type: 'delta', choice: 1, reasoning: 'thinking' },
    ]);
  });

  it('sends at once when a tool call or finish reason arrives, keeping order', () => {
    batcher.push({ type: 'delta', choice: 0, content: 'a' });
    batcher.push({ type: 'delta', choice: 0, content: 'b', finishReason: 'stop' });
    expect(sent).toEqual([{ type: 'delta', choice: 0, content: 'ab', finishReason: 'stop' }]);
  });

  it('flushes what is pending on dispose', () => {
    batcher.push({ type: 'delta', choice: 0, content: 'tail' });
    batcher.dispose();
    expect(sent).toEqual([{ type: 'delta', choice: 0, content: 'tail' }]);
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(1);
  });
});

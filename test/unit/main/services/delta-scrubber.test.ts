import { describe, expect, it } from 'vitest';
import { SecretScrubber } from '../../../../main/api/secret-scrubber';
import { DeltaScrubber, type Delta } from '../../../../main/services/delta-scrubber';
import type { ChatToolCall } from '../../../../shared/wire/chat';

const KEY = 'sk-delta-secret-0123456789';

/** What the page shows after `deltas` (and the scrubber's end), joined the way the renderer joins them. */
function shown(deltas: Delta[]): { sent: Delta[]; choices: ReturnType<typeof render> } {
  const scrubber = new DeltaScrubber(new SecretScrubber([KEY]));
  const sent = [...deltas.map((d) => scrubber.scrub(d)).filter((d): d is Delta => d !== null), ...scrubber.end()];
  return { sent, choices: render(sent) };
}

interface Shown {
  content: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
}

/** The renderer's rule (renderer/src/lib/chat-output.ts): text appended; a call without id appended to the one with its index. */
function render(sent: Delta[]): Shown[] {
  const choices: Shown[] = [];
  for (const d of sent) {
    while (choices.length <= d.choice) choices.push({ content: '', reasoning: '', toolCalls: [], finishReason: null });
    const c = choices[d.choice]!;
    c.content += d.content ?? '';
    c.reasoning += d.reasoning ?? '';
    for (const call of d.toolCalls ?? []) {
      const existing = c.toolCalls.find((t) => t.index === call.index);
      if (existing && !call.id) existing.function.arguments += call.function.arguments;
      else c.toolCalls.push({ ...call, function: { ...call.function } });
    }
    if (d.finishReason) c.finishReason = d.finishReason;
  }
  return choices;
}

describe('delta-scrubber', () => {
  describe('DeltaScrubber', () => {
    it('masks a key split over the content of several deltas, and sends no piece long enough to rebuild it', () => {
      const { sent, choices } = shown([
        { type: 'delta', choice: 0, content: 'Your key: sk-del' },
        { type: 'delta', choice: 0, content: 'ta-secret-01' },
        { type: 'delta', choice: 0, content: '23456789, bye', finishReason: 'stop' },
      ]);
      expect(choices[0]!.content).toBe('Your key: ***, bye');
      expect(choices[0]!.finishReason).toBe('stop');
      expect(JSON.stringify(sent)).not.toContain('sk-del');
    });

    it('keeps reasoning and content of each choice apart, releasing held text when the stream ends without a finish', () => {
      const { choices } = shown([
        { type: 'delta', choice: 0, reasoning: 'think sk-delta-' },
        { type: 'delta', choice: 1, content: 'other s' },
        { type: 'delta', choice: 0, reasoning: 'secret-0123456789 done', content: 'answer s' },
      ]);
      expect(choices.map((c) => [c.reasoning, c.content])).toEqual([
        ['think *** done', 'answer s'],
        ['', 'other s'],
      ]);
    });

    it("masks a key split over a streamed tool call's argument pieces", () => {
      const call = (args: string, first = false) => ({ id: first ? 'call_1' : '', type: 'function', index: 0, function: { name: first ? 'f' : '', arguments: args } });
      const { choices } = shown([
        { type: 'delta', choice: 0, toolCalls: [call('{"key":"sk-delta', true)] },
        { type: 'delta', choice: 0, toolCalls: [call('-secret-0123456789"}')] },
        { type: 'delta', choice: 0, finishReason: 'tool_calls' },
      ]);
      expect(choices[0]!.toolCalls).toEqual([expect.objectContaining({ id: 'call_1', function: { name: 'f', arguments: '{"key":"***"}' } })]);
    });

    it('passes deltas through unchanged when the connection has no key', () => {
      const delta: Delta = { type: 'delta', choice: 0, content: 'sk-delta-secret-0123456789' };
      expect(new DeltaScrubber(SecretScrubber.NONE).scrub(delta)).toBe(delta);
    });
  });
});

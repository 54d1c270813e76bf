import { describe, expect, it } from 'vitest';
import { choicesOf } from '../../../shared/text-output';
import type { MessagesResponse } from '../../../shared/wire/messages';
import { recordedEvents, startHarness, useHarness } from './harness';
import { deltaText, mergedMeta, runText } from './text-run-helper';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const weatherTool = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('MessagesService against the sandbox', () => {
  const h = useHarness();

  const send = (request: Record<string, unknown>, headers?: Record<string, string>) =>
    runText(h.app.handlers.messages.send, { request: { max_tokens: 2000, ...request }, ...(headers ? { headers } : {}) });

  describe('send() streaming', () => {
    it('streams thinking then a tool call: reasoning and tool call chunks, stop reason as meta, usage in the chat shape', async () => {
      const { record, chunks } = await send({
        model: 'svc-3-mini',
        messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        tools: [weatherTool],
        tool_choice: { type: 'any' },
        stream: true,
      });
      expect(record).toMatchObject({ status: 'completed', endpoint: 'messages', error: null });
      const message = record.output as unknown as MessagesResponse;
      expect(message.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
      expect(message.stop_reason).toBe('tool_use');
      const [choice] = choicesOf('messages', record.output);
      expect(deltaText(chunks, 'reasoning')).toBe(choice.reasoning);
      expect(choice.reasoning.length).toBeGreaterThan(10);
      const calls = chunks.flatMap((c) => (c.type === 'delta' ? (c.toolCalls ?? []) : []));
      expect(calls).toEqual(choice.toolCalls);
      expect(calls[0]).toMatchObject({ function: { name: 'get_weather' } });
      expect(JSON.parse(calls[0].function.arguments)).toEqual(expect.objectContaining({ city: expect.any(String) }));
      expect(mergedMeta(chunks)).toMatchObject({ stopReason: 'tool_use', stopSequence: null });
      const usage = message.usage;
      expect(record.usage).toMatchObject({
        prompt_tokens: usage.input_tokens + usage.cache_read_input_tokens,
        completion_tokens: usage.output_tokens,
        prompt_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
      });
      expect(chunks.filter((c) => c.type === 'usage').at(-1)).toEqual({ type: 'usage', usage: record.usage });
      const events = await recordedEvents(h.app, record.id);
      expect(events.map((e) => e.event).filter(Boolean)).toContain('content_block_delta');
      expect(events.at(-1)?.data).toBe('[DONE]');
    });

    it('keeps the partial text and marks the run incomplete when the stream is dropped', async () => {
      const { record, chunks } = await send(
        { model: 'svc-4', messages: [{ role: 'user', content: 'Tell me a long story about lighthouses' }], stream: true },
        { 'x-sandbox-fault': 'drop-after=8' },
      );
      expect(record.status).toBe('incomplete');
      expect(record.error?.code).toBe('stream_incomplete');
      expect(deltaText(chunks).length).toBeGreaterThan(0);
      expect(choicesOf('messages', record.output)[0].content).toBe(deltaText(chunks));
    });

    it('ends as cancelled with the partial text when the caller stops', async () => {
      const slow = await startHarness({ tokenDelayMs: 5 });
      try {
        const { record, chunks } = await runText(
          slow.app.handlers.messages.send,
          { request: { model: 'svc-4', max_tokens: 4000, messages: [{ role: 'user', content: 'Write a long essay about glaciers' }], stream: true } },
          { abortAfterDeltas: 3 },
        );
        expect(record.status).toBe('cancelled');
        expect(record.error).toBeNull();
        expect(choicesOf('messages', record.output)[0].content).toBe(deltaText(chunks));
        expect(deltaText(chunks).length).toBeGreaterThan(0);
      } finally {
        await slow.close();
      }
    });
  });

  describe('send() plain', () => {
    it('emits the Message as the same chunks and indexes it for History', async () => {
      const { record, chunks } = await send({ model: 'svc-4', system: 'You are terse.', messages: [{ role: 'user', content: 'Describe pelicans' }] });
      expect(record.status).toBe('completed');
      expect(record.eventCount).toBe(0);
      expect(await recordedEvents(h.app, record.id)).toEqual([]);
      const [choice] = choicesOf('messages', record.output);
      expect(deltaText(chunks)).toBe(choice.content);
      expect(mergedMeta(chunks)).toMatchObject({ stopReason: 'end_turn' });
      expect(record.promptPreview).toBe('Describe pelicans');
      const page = h.app.handlers.history.search({ query: 'pelicans', endpoint: 'messages', limit: 50 } as never, CTX) as { items: Array<{ id: string }> };
      expect(page.items.map((i) => i.id)).toEqual([record.id]);
    });

    it('records a missing max_tokens as invalid_input without sending', async () => {
      const { record } = await runText(h.app.handlers.messages.send, { request: { model: 'svc-4', messages: [{ role: 'user', content: 'hi' }] } });
      expect(record).toMatchObject({ status: 'error', response: null, error: { code: 'invalid_input', message: expect.stringContaining('max_tokens') } });
    });
  });
});

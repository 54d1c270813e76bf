import { describe, expect, it } from 'vitest';
import { choicesOf } from '../../../shared/text-output';
import type { TextCompletion } from '../../../shared/wire/completions';
import { useHarness } from './harness';
import { deltaText, mergedMeta, runText } from './text-run-helper';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const MODEL = 'svc-4';

describe('CompletionsService against the sandbox', () => {
  const h = useHarness();

  const send = (request: Record<string, unknown>, headers?: Record<string, string>) =>
    runText(h.app.handlers.completions.send, { request: { model: MODEL, max_tokens: 40, ...request }, ...(headers ? { headers } : {}) });

  describe('send()', () => {
    it('answers n choices per prompt, each streamed on its own index, with the usage chunk', async () => {
      const { record, chunks } = await send({
        prompt: ['The sea is', 'Mountains are'],
        n: 2,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(record).toMatchObject({ status: 'completed', endpoint: 'completions' });
      const choices = choicesOf('completions', record.output);
      expect(choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
      for (const c of choices) {
        expect(c.content.length).toBeGreaterThan(0);
        expect(deltaText(chunks, 'content', c.index)).toBe(c.content);
      }
      expect(record.usage?.total_tokens).toBeGreaterThan(0);
      expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
      expect(record.costTicks).toBe(record.usage?.cost_in_usd_ticks);
      expect(record.request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    });

    it('includes the prompt in the text with echo, plain, and sends no stream_options', async () => {
      const { record, chunks } = await send({ prompt: 'Once upon a time', echo: true, stream_options: { include_usage: true } });
      expect(record.status).toBe('completed');
      const text = (record.output as unknown as TextCompletion).choices[0].text;
      expect(text.startsWith('Once upon a time')).toBe(true);
      expect(deltaText(chunks)).toBe(text);
      expect(record.request.body).toEqual({ model: MODEL, max_tokens: 40, prompt: 'Once upon a time', echo: true, stream: false });
    });

    it('keeps the partial text and marks the run incomplete when the stream is dropped', async () => {
      const { record, chunks } = await send({ prompt: 'A long tale of ships', max_tokens: 400, stream: true }, { 'x-sandbox-fault': 'drop-after=5' });
      expect(record.status).toBe('incomplete');
      expect(record.error?.code).toBe('stream_incomplete');
      expect(deltaText(chunks).length).toBeGreaterThan(0);
      expect(choicesOf('completions', record.output)[0].content).toBe(deltaText(chunks));
      expect(record.usage).toBeNull();
    });
  });

  describe('complete()', () => {
    it('answers a plain legacy completion with its stop reason as meta', async () => {
      const { record, chunks } = await runText(h.app.handlers.completions.complete, {
        request: { model: MODEL, prompt: '\n\nHuman: Describe a walrus\n\nAssistant:', max_tokens_to_sample: 60 },
      });
      expect(record).toMatchObject({ status: 'completed', endpoint: 'complete' });
      const completion = (record.output as { completion: string }).completion;
      expect(completion.length).toBeGreaterThan(0);
      expect(deltaText(chunks)).toBe(completion);
      expect(mergedMeta(chunks).stopReason).toEqual((record.output as { stop_reason: string }).stop_reason);
      const page = h.app.handlers.history.search({ query: 'walrus', endpoint: 'complete', limit: 50 } as never, CTX) as { items: Array<{ id: string }> };
      expect(page.items.map((i) => i.id)).toEqual([record.id]);
    });

    it('sends stream: true as asked and records the service refusing it', async () => {
      const { record } = await runText(h.app.handlers.completions.complete, {
        request: { model: MODEL, prompt: 'Hello', max_tokens_to_sample: 10, stream: true },
      });
      expect(record.status).toBe('error');
      expect(record.error).toMatchObject({ code: 'api_error', status: 400, message: expect.stringContaining('stream') });
      expect(record.error?.requestId).toBeTruthy();
      expect(record.response?.status).toBe(400);
    });
  });
});

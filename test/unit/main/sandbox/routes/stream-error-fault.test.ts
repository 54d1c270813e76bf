import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { KEY, parseSse, streamPayloads, useHarness, type SseFrame } from '../harness';

const h = useHarness();

const fault = (value: string) => ({ 'x-sandbox-fault': value });
const message = (n: number) => `The sandbox injected an overload after ${n} events (x-sandbox-fault: error-after)`;

/** Posts a stream request and returns its frames; the body must end cleanly (no reset). */
async function frames(path: string, body: Record<string, unknown>, header?: string): Promise<SseFrame[]> {
  const res = await h.post(path, { ...body, stream: true }, header ? fault(header) : {});
  expect(res.status).toBe(200);
  return parseSse(await res.text());
}

const chatBody = { model: 'svc-4', seed: 3, messages: [{ role: 'user', content: 'Explain tide pools' }] };
const completionsBody = { model: 'svc-4', seed: 3, prompt: 'Once upon a time', max_tokens: 12 };
const responsesBody = { model: 'svc-4', input: 'Explain tide pools', store: false };
const messagesBody = { model: 'svc-4', max_tokens: 64, messages: [{ role: 'user', content: 'Explain tide pools' }] };

describe('sandbox stream fault error-after', () => {
  describe('POST /v1/chat/completions', () => {
    it('sends N normal chunks, then an OpenAI-style error frame with no event line, and no [DONE]', async () => {
      const normal = streamPayloads(await (await h.chat({ ...chatBody, stream: true })).text());
      const got = await frames('/v1/chat/completions', chatBody, 'error-after=3');
      expect(got).toHaveLength(4);
      expect(got.every((f) => f.event === undefined)).toBe(true);
      const before = got.slice(0, 3).map((f) => JSON.parse(f.data) as Record<string, any>);
      expect(before.map((c) => c.object)).toEqual(['chat.completion.chunk', 'chat.completion.chunk', 'chat.completion.chunk']);
      expect(before.map((c) => c.choices)).toEqual(normal.slice(0, 3).map((c) => c.choices));
      expect(JSON.parse(got[3].data)).toEqual({ error: { message: message(3), type: 'service_unavailable', code: 'overloaded', param: null } });
      expect(got.some((f) => f.data === '[DONE]')).toBe(false);
    });

    it('sends only the error with error-after=0', async () => {
      const got = await frames('/v1/chat/completions', chatBody, 'error-after=0');
      expect(got.map((f) => JSON.parse(f.data))).toEqual([{ error: expect.objectContaining({ message: message(0) }) }]);
    });

    it('puts the error in place of [DONE] when the stream has exactly N frames, and leaves a shorter stream alone', async () => {
      const body = { ...chatBody, max_completion_tokens: 2 };
      const count = streamPayloads(await (await h.chat({ ...body, stream: true })).text()).length;
      const exact = await frames('/v1/chat/completions', body, `error-after=${count}`);
      expect(exact).toHaveLength(count + 1);
      expect(JSON.parse(exact.at(-1)!.data).error.message).toBe(message(count));
      const longer = await frames('/v1/chat/completions', body, `error-after=${count + 1}`);
      expect(longer.at(-1)!.data).toBe('[DONE]');
    });

    it('fails only the first identical request with times=1, so a retry streams to [DONE]', async () => {
      const body = { ...chatBody, seed: 77, max_completion_tokens: 5 };
      expect((await frames('/v1/chat/completions', body, 'error-after=2;times=1')).at(-1)!.data).toContain('"error"');
      expect((await frames('/v1/chat/completions', body, 'error-after=2;times=1')).at(-1)!.data).toBe('[DONE]');
    });

    it('makes the openai SDK stream throw an APIError carrying the message', async () => {
      const client = new OpenAI({ apiKey: KEY, baseURL: `${h.sandbox.url}/v1`, maxRetries: 0, defaultHeaders: fault('error-after=2') });
      const seen: string[] = [];
      const run = async () => {
        const stream = await client.chat.completions.create({ model: 'svc-4', stream: true, messages: [{ role: 'user', content: 'Say "one two three four"' }] });
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
      };
      await expect(run()).rejects.toThrow(message(2));
      expect(seen).toHaveLength(2);
    });

    it('is ignored by a non-streamed request', async () => {
      const res = await h.chat(chatBody, fault('error-after=1'));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { object: string }).object).toBe('chat.completion');
    });
  });

  describe('POST /v1/completions', () => {
    it('sends N text_completion chunks, then the OpenAI-style error frame, and no [DONE]', async () => {
      const normal = streamPayloads(await (await h.post('/v1/completions', { ...completionsBody, stream: true })).text());
      const got = await frames('/v1/completions', completionsBody, 'error-after=4');
      expect(got).toHaveLength(5);
      expect(got.every((f) => f.event === undefined)).toBe(true);
      const before = got.slice(0, 4).map((f) => JSON.parse(f.data) as Record<string, any>);
      expect(before.every((c) => c.object === 'text_completion')).toBe(true);
      expect(before.map((c) => c.choices)).toEqual(normal.slice(0, 4).map((c) => c.choices));
      expect(JSON.parse(got[4].data)).toEqual({ error: { message: message(4), type: 'service_unavailable', code: 'overloaded', param: null } });
      expect(got.some((f) => f.data === '[DONE]')).toBe(false);
    });
  });

  describe('POST /v1/responses', () => {
    it('sends N numbered events, then event: error with the next sequence_number, and no [DONE]', async () => {
      const got = await frames('/v1/responses', responsesBody, 'error-after=5');
      expect(got).toHaveLength(6);
      const before = got.slice(0, 5).map((f) => ({ event: f.event, data: JSON.parse(f.data) as Record<string, any> }));
      expect(before.map((f) => f.data.sequence_number)).toEqual([0, 1, 2, 3, 4]);
      expect(before.every((f) => f.event === f.data.type)).toBe(true);
      expect(before.map((f) => f.data.type).slice(0, 3)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
      expect(got[5].event).toBe('error');
      expect(JSON.parse(got[5].data)).toEqual({ type: 'error', code: 'overloaded', message: message(5), param: null, sequence_number: 5 });
      expect(got.some((f) => f.data === '[DONE]' || f.data.includes('response.completed'))).toBe(false);
    });

    it('makes the openai SDK responses stream throw an APIError carrying the message', async () => {
      const client = new OpenAI({ apiKey: KEY, baseURL: `${h.sandbox.url}/v1`, maxRetries: 0, defaultHeaders: fault('error-after=3') });
      const types: string[] = [];
      const run = async () => {
        const stream = await client.responses.create({ model: 'svc-4', input: 'Explain tide pools', stream: true, store: false });
        for await (const event of stream) types.push(event.type);
      };
      await expect(run()).rejects.toThrow(message(3));
      expect(types).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
    });
  });

  describe('POST /v1/messages', () => {
    it('sends N Anthropic events, then event: error with an overloaded_error, and no [DONE]', async () => {
      const got = await frames('/v1/messages', messagesBody, 'error-after=4');
      expect(got).toHaveLength(5);
      const before = got.slice(0, 4).map((f) => ({ event: f.event, data: JSON.parse(f.data) as Record<string, any> }));
      expect(before.map((f) => f.event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta']);
      expect(before.every((f) => f.event === f.data.type)).toBe(true);
      expect(got[4].event).toBe('error');
      expect(JSON.parse(got[4].data)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: message(4) } });
      expect(got.some((f) => f.data === '[DONE]' || f.event === 'message_stop')).toBe(false);
    });

    it('makes the Anthropic SDK stream throw an APIError carrying the message', async () => {
      const client = new Anthropic({ apiKey: KEY, baseURL: h.sandbox.url, maxRetries: 0, defaultHeaders: fault('error-after=2') });
      const types: string[] = [];
      const run = async () => {
        const stream = await client.messages.create({ ...messagesBody, stream: true } as Anthropic.MessageCreateParamsStreaming);
        for await (const event of stream) types.push(event.type);
      };
      await expect(run()).rejects.toThrow(/overloaded_error.*error-after|error-after.*overloaded_error|injected an overload/);
      expect(types).toEqual(['message_start']);
    });
  });
});

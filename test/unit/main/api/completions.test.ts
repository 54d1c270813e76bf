import { describe, expect, it } from 'vitest';
import { createComplete, createCompletion, streamCompletion } from '../../../../main/api/completions';
import { CompletionsAssembler } from '../../../../main/api/completions-assembler';
import type { TextCompletionChunk } from '../../../../shared/wire/completions';
import { useLocalClient } from './local-client';
import { openStream, sendJson } from './local-server';

const setup = useLocalClient();

const chunk = (index: number, text: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 't1', object: 'text_completion', created: 5, model: 'svc-3', system_fingerprint: 'fp', choices: [{ index, text, finish_reason: finish, logprobs: null }] })}\n\n`;
const usage = { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10, cost_in_usd_ticks: 99 };
const usageChunk = `data: ${JSON.stringify({ id: 't1', object: 'text_completion', created: 5, model: 'svc-3', system_fingerprint: 'fp', choices: [], usage })}\n\n`;
const body = { model: 'svc-3', prompt: ['a', 'b'], n: 1 };

function collect() {
  const chunks: TextCompletionChunk[] = [];
  return { chunks, handlers: { onChunk: (c: TextCompletionChunk) => void chunks.push(c) } };
}

describe('completions', () => {
  describe('streamCompletion()', () => {
    it('ends ok on [DONE]; the assembler gives one choice per index and the usage', async () => {
      const { server, client } = await setup((_req, res) => {
        openStream(res);
        res.end(chunk(0, 'one ') + chunk(1, 'two') + chunk(0, 'more', 'stop') + chunk(1, '', 'length') + usageChunk + 'data: [DONE]\n\n');
      });
      const c = collect();
      expect(await streamCompletion(client, { ...body, stream_options: { include_usage: true } }, c.handlers)).toMatchObject({ ok: true });
      expect(JSON.parse(server.received[0].body)).toEqual({ ...body, stream: true, stream_options: { include_usage: true } });
      const a = new CompletionsAssembler();
      c.chunks.forEach((x) => a.push(x));
      expect(a.result()).toEqual({
        id: 't1',
        object: 'text_completion',
        created: 5,
        model: 'svc-3',
        system_fingerprint: 'fp',
        choices: [
          { index: 0, text: 'one more', finish_reason: 'stop', logprobs: null },
          { index: 1, text: 'two', finish_reason: 'length', logprobs: null },
        ],
        usage,
      });
    });

    it('reports a stream cut before [DONE] as incomplete, with the chunks so far delivered', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(chunk(0, 'par') + chunk(0, 'tial'));
      });
      const c = collect();
      const outcome = await streamCompletion(client, body, c.handlers);
      expect(outcome.error).toMatchObject({ kind: 'stream_incomplete' });
      expect(c.chunks.map((x) => x.choices[0].text).join('')).toBe('partial');
    });

    it('turns an error frame into the service message and a non-JSON line into a protocol error', async () => {
      const { client } = await setup((_req, res, n) => {
        openStream(res);
        if (n === 0) res.end(chunk(0, 'x') + `data: ${JSON.stringify({ error: { message: 'capacity', code: 'overloaded' } })}\n\n`);
        else res.end('data: [oops\n\n');
      });
      expect((await streamCompletion(client, body, collect().handlers)).error).toMatchObject({ kind: 'http', code: 'overloaded', message: expect.stringContaining('capacity') });
      expect((await streamCompletion(client, body, collect().handlers)).error).toMatchObject({ kind: 'protocol' });
    });
  });

  describe('createCompletion()', () => {
    it('posts stream: false without stream_options', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 200, { id: 't', object: 'text_completion', choices: [] }));
      await createCompletion(client, { ...body, stream: true, stream_options: { include_usage: true } });
      expect(JSON.parse(server.received[0].body)).toEqual({ ...body, stream: false });
    });
  });

  describe('createComplete()', () => {
    it('sends the body as given to /v1/complete and reports the service refusal of stream', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 400, { code: 'invalid-argument', error: 'streaming is not supported on /v1/complete' }));
      const r = await createComplete(client, { model: 'svc-3', prompt: 'Hi', max_tokens_to_sample: 5, stream: true });
      expect(server.received[0].url).toBe('/v1/complete');
      expect(JSON.parse(server.received[0].body).stream).toBe(true);
      expect(!r.ok && r.error).toMatchObject({ status: 400, message: expect.stringContaining('streaming is not supported') });
    });
  });
});

import { describe, expect, it } from 'vitest';
import { createChatCompletion, getDeferredCompletion, streamChatCompletion } from '../../../../main/api/chat';
import type { ChatCompletionChunk } from '../../../../shared/wire/chat';
import { useLocalClient } from './local-client';
import { openStream, sendJson } from './local-server';

const setup = useLocalClient();

const chunk = (content: string, extra: Partial<ChatCompletionChunk['choices'][0]> = {}): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'svc-3-mini', choices: [{ index: 0, delta: { content }, ...extra }] })}\n\n`;

const request = { model: 'svc-3-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

function recorder() {
  const texts: string[] = [];
  const raw: string[] = [];
  return {
    texts,
    raw,
    handlers: {
      onChunk: (c: ChatCompletionChunk) => void texts.push(c.choices[0]?.delta.content ?? ''),
      onRawEvent: (e: { data: string }) => void raw.push(e.data),
    },
  };
}

describe('chat', () => {
  describe('streamChatCompletion()', () => {
    it('delivers chunks and ends ok on [DONE], forcing stream: true', async () => {
      const { server, client } = await setup((_req, res) => {
        openStream(res);
        res.end(chunk('Hel') + chunk('lo', { finish_reason: 'stop' }) + 'data: [DONE]\n\n');
      });
      const r = recorder();
      const outcome = await streamChatCompletion(client, request, r.handlers);
      expect(outcome).toMatchObject({ ok: true, error: null });
      expect(r.texts).toEqual(['Hel', 'lo']);
      expect(r.raw.at(-1)).toBe('[DONE]');
      expect(JSON.parse(server.received[0].body)).toEqual({ ...request, stream: true });
      expect(server.received[0].url).toBe('/v1/chat/completions');
    });

    it('reports a stream that ends without [DONE] as incomplete, with the earlier chunks delivered', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res, { 'x-request-id': 'rq' });
        res.end(chunk('partial ') + chunk('answer'));
      });
      const r = recorder();
      const outcome = await streamChatCompletion(client, request, r.handlers);
      expect(outcome).toMatchObject({
        ok: false,
        error: { kind: 'stream_incomplete', requestId: 'rq', message: 'The stream ended before it finished (no [DONE] marker arrived). The partial output is kept.' },
      });
      expect(r.texts).toEqual(['partial ', 'answer']);
    });

    it('reports a dropped connection after the stream opened as incomplete', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.write(chunk('first'), () => setTimeout(() => res.socket?.destroy(), 20));
      });
      const r = recorder();
      const outcome = await streamChatCompletion(client, request, r.handlers);
      expect(outcome).toMatchObject({ ok: false, retries: 0, error: { kind: 'stream_incomplete', message: expect.stringContaining('connection lost') } });
      expect(r.texts).toEqual(['first']);
    });

    it('stops at a chunk that is not JSON with a protocol error, keeping earlier chunks', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(`${chunk('ok')}data: {not json\n\n${chunk('never')}data: [DONE]\n\n`);
      });
      const r = recorder();
      const outcome = await streamChatCompletion(client, request, r.handlers);
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'protocol', body: '{not json', message: expect.stringContaining('not JSON') } });
      expect(r.texts).toEqual(['ok']);
      expect(r.raw).toEqual([expect.any(String), '{not json']);
    });

    it('turns an error frame mid-stream into the service error', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(`${chunk('a')}data: {"error":{"message":"model overloaded","code":"unavailable"}}\n\n`);
      });
      const outcome = await streamChatCompletion(client, request, recorder().handlers);
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'http', code: 'unavailable', message: 'The service reported an error mid-stream: model overloaded' } });
    });

    it('returns the HTTP error when the request is refused before streaming', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 422, { code: 'invalid-argument', error: 'messages must not be empty' }));
      const outcome = await streamChatCompletion(client, request, recorder().handlers);
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'http', status: 422 } });
    });
  });

  describe('createChatCompletion()', () => {
    it('posts without stream flags and returns the completion', async () => {
      const completion = { id: 'c', object: 'chat.completion', choices: [] };
      const { server, client } = await setup((_req, res) => sendJson(res, 200, completion));
      const result = await createChatCompletion(client, { ...request, stream: true, stream_options: { include_usage: true } });
      expect(result).toMatchObject({ ok: true, value: completion });
      expect(JSON.parse(server.received[0].body)).toEqual(request);
    });

    it('returns the request id of a deferred completion', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 200, { request_id: 'd-1' }));
      const result = await createChatCompletion(client, { ...request, deferred: true });
      expect(result).toMatchObject({ ok: true, value: { request_id: 'd-1' } });
    });
  });

  describe('getDeferredCompletion()', () => {
    it('is pending on 202 and done with the completion on 200', async () => {
      const completion = { id: 'c', object: 'chat.completion', choices: [] };
      const { server, client } = await setup((_req, res, n) => {
        if (n === 0) {
          res.writeHead(202);
          res.end();
        } else sendJson(res, 200, completion);
      });
      expect(await getDeferredCompletion(client, 'd/1')).toMatchObject({ ok: true, value: { state: 'pending' }, meta: { status: 202 } });
      expect(await getDeferredCompletion(client, 'd/1')).toMatchObject({ ok: true, value: { state: 'done', completion } });
      expect(server.received[0].url).toBe('/v1/chat/deferred-completion/d%2F1');
    });

    it('passes an unknown id through as a 404 error', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 404, { code: 'not-found', error: 'no such request' }));
      expect(await getDeferredCompletion(client, 'x')).toMatchObject({ ok: false, error: { kind: 'http', status: 404 } });
    });
  });
});

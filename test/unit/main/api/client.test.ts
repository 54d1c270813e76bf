import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../main/api/client';
import type { SseEvent } from '../../../../main/api/sse';
import { useLocalClient } from './local-client';
import { closedPort, openStream, sendJson } from './local-server';

const KEY = 'sk-very-secret-key-123';

/** A client on a fresh server; retry waits are recorded instead of slept. */
const setup = useLocalClient({ apiKey: KEY, random: () => 0 });

describe('client', () => {
  describe('ApiClient.json()', () => {
    it('returns the parsed body with the request id, and sends the key only on the wire', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 200, { object: 'list', data: [] }, { 'x-request-id': 'req-1' }));
      const result = await client.json({ method: 'POST', path: '/v1/things', query: { limit: 5, after: undefined }, body: { a: 1 } });
      expect(result).toMatchObject({
        ok: true,
        value: { object: 'list', data: [] },
        meta: { status: 200, requestId: 'req-1' },
        retries: 0,
        captured: {
          method: 'POST',
          url: `${server.baseUrl}/v1/things?limit=5`,
          headers: { authorization: 'Bearer ***', 'content-type': 'application/json', accept: 'application/json' },
          body: { a: 1 },
        },
      });
      expect(server.received[0]).toMatchObject({ method: 'POST', url: '/v1/things?limit=5', body: '{"a":1}' });
      expect(server.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('does not double the version when the base URL already ends in /v1', async () => {
      const { server } = await setup((_req, res) => sendJson(res, 200, {}));
      const c = new ApiClient({ baseUrl: `${server.baseUrl}/v1/`, apiKey: null });
      const result = await c.json({ method: 'GET', path: '/v1/models' });
      await c.dispose();
      expect(server.received[0].url).toBe('/v1/models');
      expect(server.received[0].headers.authorization).toBeUndefined();
      expect(result.captured.headers.authorization).toBeUndefined();
    });

    it('treats 202 with an empty body as ok with a null value', async () => {
      const { client } = await setup((_req, res) => {
        res.writeHead(202);
        res.end();
      });
      const result = await client.json({ method: 'GET', path: '/v1/chat/deferred-completion/x' });
      expect(result).toMatchObject({ ok: true, value: null, meta: { status: 202 } });
    });

    it.each([
      ['service-native', { code: 'Client specified an invalid argument', error: 'temperature must be at most 2' }, 'Client specified an invalid argument'],
      ['OpenAI-style', { error: { message: 'temperature must be at most 2', type: 'invalid_request_error', code: 'invalid_value' } }, 'invalid_value'],
    ])('reads a %s error body into the error', async (_name, body, code) => {
      const { client } = await setup((_req, res) => sendJson(res, 400, body, { 'x-trace-id': 'trace-9' }));
      const result = await client.json({ method: 'POST', path: '/v1/chat/completions', body: {} });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toEqual({
        kind: 'http',
        status: 400,
        code,
        message: 'The service rejected the request (400): temperature must be at most 2',
        requestId: 'trace-9',
        body,
      });
      expect(result.retries).toBe(0);
    });

    it('keeps a non-JSON error body as text in the message', async () => {
      const { client } = await setup((_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>bad gateway</html>');
      });
      const result = await client.json({ method: 'GET', path: '/v1/models' });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ kind: 'http', status: 502, body: '<html>bad gateway</html>' });
      if (!result.ok) expect(result.error.message).toContain('<html>bad gateway</html>');
    });

    it('tells the user to check the key on 401 and never repeats the key', async () => {
      const { client } = await setup((_req, res) =>
        sendJson(res, 401, { code: 'The request does not have valid authentication credentials', error: `Incorrect API key provided: ${KEY}` }),
      );
      const result = await client.json({ method: 'GET', path: '/v1/models', headers: { 'x-api-key': KEY } });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.message).toBe('The service refused the API key (401): Incorrect API key provided: ***. Check the key in Connections.');
      expect(result.captured.headers['x-api-key']).toBe('***');
      expect(JSON.stringify(result)).not.toContain(KEY);
    });

    it('says what was not found on 404, without retrying', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 404, { code: 'not-found', error: 'Model svc-x does not exist' }));
      const result = await client.json({ method: 'GET', path: '/v1/models/svc-x' });
      expect(result).toMatchObject({
        ok: false,
        retries: 0,
        error: { kind: 'http', status: 404, code: 'not-found', message: 'Not found (404): Model svc-x does not exist. Check the model id or resource id.' },
      });
      expect(server.received).toHaveLength(1);
    });

    it('honours Retry-After on 429 and counts the retry', async () => {
      const { client, sleeps } = await setup((_req, res, n) =>
        n === 0 ? sendJson(res, 429, { code: 'resource-exhausted', error: 'slow down' }, { 'retry-after': '3' }) : sendJson(res, 200, { fine: true }),
      );
      const retries: unknown[] = [];
      const result = await client.json({ method: 'GET', path: '/v1/models', onRetry: (info) => retries.push(info) });
      expect(result).toMatchObject({ ok: true, value: { fine: true }, retries: 1 });
      expect(sleeps).toEqual([3000]);
      expect(retries).toEqual([{ attempt: 1, delayMs: 3000, reason: expect.stringContaining('(429): slow down') }]);
    });

    it('gives up at once when Retry-After asks for longer than the policy allows', async () => {
      const { server, client, sleeps } = await setup((_req, res) => sendJson(res, 429, { code: 'x', error: 'spending limit' }, { 'retry-after': '3600' }));
      const result = await client.json({ method: 'GET', path: '/v1/models' });
      expect(result).toMatchObject({ ok: false, retries: 0, error: { status: 429 } });
      expect(sleeps).toEqual([]);
      expect(server.received).toHaveLength(1);
    });

    it('retries 503 with backoff and succeeds, reporting each retry', async () => {
      const { server, client, sleeps } = await setup((_req, res, n) =>
        n < 2 ? sendJson(res, 503, { code: 'unavailable', error: 'busy' }) : sendJson(res, 200, { ok: 1 }),
      );
      const attempts: number[] = [];
      const result = await client.json({ method: 'POST', path: '/v1/chat/completions', body: {}, onRetry: (i) => attempts.push(i.attempt) });
      expect(result).toMatchObject({ ok: true, value: { ok: 1 }, retries: 2 });
      expect(attempts).toEqual([1, 2]);
      expect(sleeps).toEqual([500, 1000]);
      expect(server.received).toHaveLength(3);
    });

    it('returns the last 503 after the retries run out', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 503, { code: 'unavailable', error: 'busy' }));
      const result = await client.json({ method: 'GET', path: '/v1/models' });
      expect(result).toMatchObject({ ok: false, retries: 2, error: { kind: 'http', status: 503 } });
      expect(server.received).toHaveLength(3);
    });

    it('names the host and the cause when the connection is refused', async () => {
      const port = await closedPort();
      const sleeps: number[] = [];
      const client = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, random: () => 0, sleep: async (ms) => void sleeps.push(ms) });
      const result = await client.json({ method: 'GET', path: '/v1/models' }).finally(() => client.dispose());
      expect(result).toMatchObject({
        ok: false,
        meta: null,
        retries: 2,
        error: { kind: 'network', status: null, message: `Could not connect to 127.0.0.1:${port} (connection refused). Is the service running?` },
      });
      expect(sleeps).toEqual([500, 1000]);
    });

    it('times out when no answer arrives', async () => {
      const { client } = await setup(() => undefined, { headersTimeoutMs: 150 });
      const result = await client.json({ method: 'GET', path: '/v1/models' });
      expect(result).toMatchObject({ ok: false, retries: 0, error: { kind: 'timeout', message: expect.stringMatching(/^No answer from 127\.0\.0\.1:\d+ within 0\.2 s\.$/) } });
    });

    it('a request may wait for its headers longer or shorter than the connection, and says its own wait', async () => {
      const { client } = await setup(() => undefined);
      const result = await client.json({ method: 'GET', path: '/v1/models', headersTimeoutMs: 150 });
      expect(result).toMatchObject({ ok: false, retries: 0, error: { kind: 'timeout', message: expect.stringMatching(/^No answer from 127\.0\.0\.1:\d+ within 0\.2 s\.$/) } });
    });

    it('reports a 200 that is not JSON as a protocol error', async () => {
      const { client } = await setup((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"truncated":');
      });
      const result = await client.json({ method: 'GET', path: '/v1/models' });
      expect(result).toMatchObject({ ok: false, error: { kind: 'protocol', status: 200, body: '{"truncated":' } });
    });

    it('is cancelled by the signal while waiting to retry', async () => {
      const { server } = await setup((_req, res) => sendJson(res, 503, { code: 'unavailable', error: 'busy' }, { 'retry-after': '30' }));
      // The real sleep: it must wake up when the signal aborts.
      const c = new ApiClient({ baseUrl: server.baseUrl, apiKey: KEY });
      const controller = new AbortController();
      const result = await c.json({ method: 'GET', path: '/v1/models', signal: controller.signal, onRetry: () => controller.abort() });
      await c.dispose();
      expect(result).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
      expect(server.received).toHaveLength(1);
    });

    it('is cancelled without sending when the signal is already aborted', async () => {
      const { server, client } = await setup((_req, res) => sendJson(res, 200, {}));
      const result = await client.json({ method: 'GET', path: '/v1/models', signal: AbortSignal.abort() });
      expect(result).toMatchObject({ ok: false, error: { kind: 'cancelled' }, meta: null });
      expect(server.received).toHaveLength(0);
    });
  });

  describe('ApiClient.dispose()', () => {
    it('closes the pool: a later request fails as a value instead of hanging or throwing', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 200, {}));
      expect((await client.json({ method: 'GET', path: '/v1/models' })).ok).toBe(true);
      await client.dispose();
      const after = await client.json({ method: 'GET', path: '/v1/models' });
      expect(after).toMatchObject({ ok: false, error: { kind: 'network' } });
    });
  });

  describe('ApiClient.sse()', () => {
    function collect() {
      const events: SseEvent[] = [];
      return { events, onEvent: (e: SseEvent) => void events.push(e) };
    }

    it('delivers events in order with the response meta first', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res, { 'x-request-id': 'rid' });
        res.write('data: one\n\n');
        res.end('event: named\ndata: two\n\n');
      });
      const order: string[] = [];
      const outcome = await client.sse(
        { method: 'POST', path: '/v1/chat/completions', body: {} },
        { onOpen: (m) => order.push(`open ${m.status} ${m.requestId}`), onEvent: (e) => void order.push(`${e.event}:${e.data}`) },
      );
      expect(outcome).toMatchObject({ ok: true, error: null, retries: 0, captured: { headers: { accept: 'text/event-stream' } } });
      expect(order).toEqual(['open 200 rid', 'null:one', 'named:two']);
    });

    it('retries a 503 before the stream opens', async () => {
      const { client } = await setup((_req, res, n) => {
        if (n === 0) return sendJson(res, 503, { code: 'unavailable', error: 'busy' });
        openStream(res);
        res.end('data: hi\n\n');
      });
      const { events, onEvent } = collect();
      const outcome = await client.sse({ method: 'POST', path: '/v1/x', body: {} }, { onEvent });
      expect(outcome).toMatchObject({ ok: true, retries: 1 });
      expect(events.map((e) => e.data)).toEqual(['hi']);
    });

    it('does not retry once the stream has started, and reports the drop', async () => {
      const { server, client } = await setup((_req, res) => {
        openStream(res);
        res.write('data: first\n\n', () => setTimeout(() => res.socket?.destroy(), 20));
      });
      const { events, onEvent } = collect();
      const outcome = await client.sse({ method: 'POST', path: '/v1/x', body: {} }, { onEvent });
      expect(outcome).toMatchObject({ ok: false, retries: 0, error: { kind: 'network', message: expect.stringContaining('dropped mid-answer') } });
      expect(events.map((e) => e.data)).toEqual(['first']);
      expect(server.received).toHaveLength(1);
    });

    it('times out when the stream goes quiet', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.write('data: first\n\n');
      }, { bodyTimeoutMs: 150 });
      const { events, onEvent } = collect();
      const outcome = await client.sse({ method: 'POST', path: '/v1/x', body: {} }, { onEvent });
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'timeout' } });
      expect(events).toHaveLength(1);
    });

    it('is cancelled mid-stream by the signal, keeping what arrived', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.write('data: first\n\n');
      });
      const controller = new AbortController();
      const events: string[] = [];
      const outcome = await client.sse(
        { method: 'POST', path: '/v1/x', body: {}, signal: controller.signal },
        {
          onEvent: (e) => {
            events.push(e.data);
            controller.abort();
          },
        },
      );
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
      expect(events).toEqual(['first']);
    });

    it('stops reading when a handler returns false', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.write('data: a\n\ndata: b\n\n');
      });
      const events: string[] = [];
      const outcome = await client.sse({ method: 'POST', path: '/v1/x' }, { onEvent: (e) => (events.push(e.data), false) });
      expect(outcome.ok).toBe(true);
      expect(events).toEqual(['a']);
    });

    it('reports a JSON answer to a stream request as a protocol error', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 200, { id: 'x', object: 'chat.completion' }));
      const { events, onEvent } = collect();
      const outcome = await client.sse({ method: 'POST', path: '/v1/x', body: {} }, { onEvent });
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'protocol', body: { id: 'x', object: 'chat.completion' } } });
      expect(events).toEqual([]);
    });

    it('returns an error status with its body and never opens the stream', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 403, { code: 'permission-denied', error: 'no credits' }));
      let opened = false;
      const outcome = await client.sse({ method: 'POST', path: '/v1/x', body: {} }, { onOpen: () => (opened = true), onEvent: () => undefined });
      expect(outcome).toMatchObject({ ok: false, error: { kind: 'http', status: 403, code: 'permission-denied' } });
      expect(opened).toBe(false);
    });
  });
});

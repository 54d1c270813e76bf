import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../main/sandbox/index';
import { KEY, useHarness } from './harness';

const h = useHarness();

describe('sandbox/server', () => {
  describe('auth', () => {
    it('answers 401 without an Authorization header, with the native error body and a request id', async () => {
      const res = await fetch(`${h.sandbox.url}/v1/models`);
      expect(res.status).toBe(401);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-trace-id')).toBe(res.headers.get('x-request-id'));
      expect(await res.json()).toEqual({
        code: 'The request does not have valid authentication credentials',
        error: 'Missing Authorization header: send "Authorization: Bearer <API key>" with every request.',
      });
    });

    it('answers 401 for a malformed header and 400 "Incorrect API key" for an unknown key', async () => {
      expect((await h.get('/v1/models', { authorization: 'Basic abc' })).status).toBe(401);
      const res = await h.get('/v1/models', { authorization: 'Bearer sk-unknown-key-xyz' });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; error: string };
      expect(body.code).toBe('Client specified an invalid argument');
      expect(body.error).toMatch(/^Incorrect API key provided: sk\*\*\*yz\. /);
    });
  });

  describe('keep-alive', () => {
    it('keeps idle connections 65 s and says so, so a client closes an idle one before the server does', async () => {
      // Node's fetch hides the hop-by-hop Keep-Alive header: read it raw.
      const { request } = await import('node:http');
      const header = await new Promise<string | undefined>((resolve, reject) => {
        const req = request(`${h.sandbox.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}`, connection: 'keep-alive' } }, (res) => {
          res.resume();
          resolve(String(res.headers['keep-alive']));
        });
        req.on('error', reject);
        req.end();
      });
      expect(header).toBe('timeout=65');
    });
  });

  describe('routing', () => {
    it('answers 404 for an unknown path and 405 with Allow for a wrong method', async () => {
      const missing = await h.get('/v1/nothing-here');
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: string }).error).toContain('Unknown endpoint: GET /v1/nothing-here');
      const wrong = await fetch(`${h.sandbox.url}/v1/models`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY}` } });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('GET');
    });
  });

  describe('bodies', () => {
    it('answers 415 without a JSON content type and for an empty body', async () => {
      const res = await h.post('/v1/chat/completions', '{}', { 'content-type': 'text/plain' });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { error: string }).error).toContain('Content-Type: application/json');
      expect((await h.post('/v1/chat/completions', '')).status).toBe(415);
    });

    it('answers 400 naming the rule for 10^5 levels of nesting and for a __proto__ key (no stack overflow, no 500)', async () => {
      const deep = `{"model":"svc-4","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const res = await h.post('/v1/chat/completions', deep);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/nests deeper than 100 levels/);
      const proto = await h.post('/v1/chat/completions', '{"model":"svc-4","messages":[{"role":"user","content":"hi","__proto__":{"x":1}}]}');
      expect(proto.status).toBe(400);
      expect(((await proto.json()) as { error: string }).error).toContain('at messages[0] uses the key "__proto__"');
    });

    it('answers 400 for malformed JSON', async () => {
      const res = await h.post('/v1/chat/completions', '{"model": ');
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^The request body is not valid JSON/);
    });

    it('answers 413 for a body over the limit', async () => {
      const res = await h.post('/v1/chat/completions', { model: 'svc-4', messages: [{ role: 'user', content: 'x'.repeat(21 * 1024 * 1024) }] });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { code: string }).code).toBe('Payload too large');
    });
  });
});

describe('sandbox/index', () => {
  describe('startSandbox()', () => {
    it('refuses a non-loopback host', async () => {
      await expect(startSandbox({ host: '0.0.0.0' })).rejects.toThrow(/only listens on loopback/);
    });

    it('generates one key for team-sandbox when none is given, and accepts it', async () => {
      const sb = await startSandbox({ tokenDelayMs: 0 });
      try {
        expect(sb.keys).toHaveLength(1);
        expect(sb.keys[0]).toMatch(/^sk-sandbox-[0-9a-f]{24}$/);
        expect(sb.url).toBe(`http://127.0.0.1:${sb.port}`);
        const res = await fetch(`${sb.url}/v1/models`, { headers: { authorization: `Bearer ${sb.keys[0]}` } });
        expect(res.status).toBe(200);
      } finally {
        await sb.close();
      }
    });

    it('ends open streams on close()', async () => {
      const sb = await startSandbox({ tokenDelayMs: 50, keys: ['k-1'] });
      const res = await fetch(`${sb.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k-1', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'svc-4', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const reader = res.body!.getReader();
      await reader.read();
      await sb.close();
      let text = '';
      const decoder = new TextDecoder();
      await expect(
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            text += decoder.decode(value);
          }
        })(),
      ).rejects.toThrow();
      expect(text).not.toContain('[DONE]');
    });
  });
});

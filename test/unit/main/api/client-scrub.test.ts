/**
 * The client's own guarantee: whatever it returns (bodies, headers, errors, each SSE event, the
 * captured request) has passed the connection's scrubber, whatever shape the key was echoed in.
 */
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../../../main/api/sse';
import { useLocalClient } from './local-client';
import { openStream, sendJson } from './local-server';

const KEY = 'sk-echo-Test/key+0123456789';
const b64 = (s: string): string => Buffer.from(s).toString('base64');
/** The key in every shape the client must mask. */
const SHAPES = [
  KEY,
  `Bearer ${KEY}`,
  encodeURIComponent(KEY),
  b64(KEY),
  b64(KEY).replace(/=+$/, ''),
  Buffer.from(KEY).toString('base64url'),
  `Basic ${b64(`:${KEY}`)}`,
  `Basic ${b64(`user:${KEY}`)}`,
];
const ECHO = SHAPES.join(' | ');

const setup = useLocalClient({ apiKey: KEY, random: () => 0 });

/** Every stored or shown string must be free of each shape; the raw key stands for all (the scrubber knows the rest). */
function expectClean(value: unknown, scrubber: { finds(text: string): boolean }): void {
  const text = JSON.stringify(value);
  expect(scrubber.finds(text)).toBe(false);
  for (const shape of [KEY, b64(KEY), encodeURIComponent(KEY)]) expect(text).not.toContain(shape);
}

describe('client: an echoed key', () => {
  it('is masked in a 200 body, its response headers and the captured request', async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, { echo: ECHO, [KEY]: [ECHO] }, { 'x-echo': ECHO, 'x-request-id': 'req-1' }));
    const result = await client.json({ method: 'POST', path: '/v1/things', body: { note: ECHO }, headers: { 'x-custom': KEY } });
    expect(result.ok).toBe(true);
    expect(client.scrubber.finds(ECHO)).toBe(true);
    expectClean(result, client.scrubber);
    expect(result.meta?.headers['x-echo']).toContain('***');
    expect(result.meta?.requestId).toBe('req-1');
  });

  it('is masked in an error body, its message, and a body that is not JSON', async () => {
    const { client } = await setup((_req, res, n) => {
      if (n === 0) return sendJson(res, 400, { error: { message: `bad key ${ECHO}`, code: 'bad' } }, { 'www-authenticate': ECHO });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`not json ${ECHO}`);
    });
    const failed = await client.json({ method: 'GET', path: '/v1/a' });
    expect(failed.ok).toBe(false);
    expectClean(failed, client.scrubber);
    const notJson = await client.json({ method: 'GET', path: '/v1/b' });
    expect(notJson.ok).toBe(false);
    expectClean(notJson, client.scrubber);
  });

  it('is masked in each SSE event, in the stream\'s headers, even when the frame is split across TCP writes', async () => {
    const { client } = await setup(async (_req, res) => {
      openStream(res, { 'x-echo': ECHO });
      const frame = `data: ${JSON.stringify({ text: ECHO })}\n\n`;
      for (let i = 0; i < frame.length; i += 7) {
        res.write(frame.slice(i, i + 7));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end('data: [DONE]\n\n');
    });
    const events: SseEvent[] = [];
    let opened: unknown = null;
    const outcome = await client.sse({ method: 'POST', path: '/v1/chat/completions', body: {} }, { onOpen: (m) => (opened = m), onEvent: (e) => void events.push(e) });
    expect(outcome.ok).toBe(true);
    expect(events).toHaveLength(2);
    expect(events[0]!.data).toContain('***');
    expectClean({ events, opened, outcome }, client.scrubber);
  });

  it('is masked in what describe() records before a request leaves', () => {
    return setup((_req, res) => sendJson(res, 200, {})).then(({ client }) => {
      expectClean(client.describe({ method: 'POST', path: '/v1/x', body: { text: ECHO }, headers: { 'x-token-ish': 'plain', 'x-copy': KEY } }), client.scrubber);
    });
  });

  it('is masked in the captured URL (describe and the result), while the request goes to the URL as given', async () => {
    let seen = '';
    const { client } = await setup((req, res) => {
      seen = req.url;
      sendJson(res, 200, {});
    });
    const request = { method: 'GET' as const, path: '/v1/files/f1', query: { api_key: KEY } };
    expect(client.describe(request).url).toMatch(/\/v1\/files\/f1\?api_key=\*\*\*$/);
    const result = await client.json(request);
    expect(result.captured.url).toMatch(/api_key=\*\*\*$/);
    expect(seen).toBe(`/v1/files/f1?api_key=${encodeURIComponent(KEY)}`);
  });

  it('hands back the answer as sent beside its masked copy only through jsonWithUnscrubbed()', async () => {
    const url = `https://cdn.example/${Buffer.from(KEY).toString('hex')}.png?sig=${KEY}`;
    const { client } = await setup((_req, res) => sendJson(res, 200, { data: [{ url }] }, { 'x-echo': KEY }));
    const { result, unscrubbed } = await client.jsonWithUnscrubbed<{ data: Array<{ url: string }> }>({ method: 'POST', path: '/v1/images/generations', body: {} });
    expect(unscrubbed?.data[0]!.url).toBe(url);
    expect(result.ok && result.value.data[0]!.url).toBe('https://cdn.example/***.png?sig=***');
    expectClean(result, client.scrubber);
    expectClean(await client.json({ method: 'POST', path: '/v1/images/generations', body: {} }), client.scrubber);
  });
});

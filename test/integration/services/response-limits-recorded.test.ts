/**
 * A cap hit is recorded with the run (response.notices, the error's message) and the partial
 * output is kept: the app's chat service against a fake service on loopback sending a huge error,
 * an oversized stream event after some text, and a gzip event stream.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choicesOf } from '../../../shared/text-output';
import { startServer, type LocalServer } from '../../unit/main/api/local-server';
import { startHarness, type Harness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const frame = (content: string): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'svc-4', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

let h: Harness;
let fake: LocalServer;
let connectionId: string;

beforeAll(async () => {
  fake = await startServer((req, res) => {
    const scenario = String(req.headers['x-scenario']);
    if (scenario === 'huge-error') {
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': String(20e6) });
      res.on('error', () => undefined);
      res.write('{"error":{"message":"');
      const block = Buffer.alloc(64 * 1024, 'x');
      let left = 300; // blocks: 19.7 MB, under the declared length; the client stops long before
      const pump = (): void => {
        while (!res.destroyed && left-- > 0 && res.write(block));
        if (!res.destroyed && left > 0) res.once('drain', pump);
      };
      pump();
    } else if (scenario === 'big-event') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame('Kept before the cap'));
      res.end(`data: ${'x'.repeat(5 * 2 ** 20)}\n\ndata: [DONE]\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(gzipSync(`${frame('Compressed ')}${frame('hello')}data: [DONE]\n\n`));
    }
  });
  h = await startHarness();
  connectionId = (await h.app.handlers.connections.save({ name: 'Fake', baseUrl: fake.baseUrl, apiKey: 'sk-fake-limits-01' }, CTX)).id;
});
afterAll(async () => {
  await h.close();
  await fake.close();
});

const send = (scenario: string, stream: boolean) =>
  h.send({ connectionId, headers: { 'x-scenario': scenario }, request: { model: 'svc-4', messages: [{ role: 'user', content: 'hi' }], stream } });

describe('caps recorded with the run', () => {
  it('a huge error keeps its first 1 MB in the record and says so', async () => {
    const { record } = await send('huge-error', false);
    const stored = await h.app.handlers.history.get({ id: record.id }, CTX);
    expect(stored.status).toBe('error');
    expect(stored.error?.message).toMatch(/The service sent an error of 19\.1 MiB; the first 1 MiB is kept and the rest was not read\.$/);
    expect((stored.response?.body as string).length).toBe(2 ** 20);
    expect(stored.response?.notices?.map((n) => n.limit)).toEqual(['error_body']);
  });

  it('an oversized stream event ends the run as incomplete with the text before it kept', async () => {
    const { record } = await send('big-event', true);
    const stored = await h.app.handlers.history.get({ id: record.id }, CTX);
    expect(stored.status).toBe('incomplete');
    expect(choicesOf(stored.endpoint, stored.output)[0]!.content).toBe('Kept before the cap');
    expect(stored.error?.message).toContain('a single stream event of more than 4 MiB');
    expect(stored.response?.notices?.map((n) => n.limit)).toEqual(['sse_event']);
  });

  it('a gzip event stream completes', async () => {
    const { record } = await send('gzip', true);
    expect(record.status).toBe('completed');
    expect(choicesOf(record.endpoint, record.output)[0]!.content).toBe('Compressed hello');
    expect(record.response?.notices).toBeUndefined();
  });
});

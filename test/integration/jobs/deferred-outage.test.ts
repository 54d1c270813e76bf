/**
 * A deferred chat waits out an outage: the service goes away right after it accepted the request
 * (connections dropped, then 503s); the job keeps waiting — the window hears that it waits, why and
 * when it tries next — far past the attempts that used to end it, "Retry now" tries at once, and
 * when the service is back the answer is recorded. A fake service in this process, so the test
 * can take it away; the job's backoff is scaled down (a thousandth) so minutes take milliseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { ChatStreamChunk } from '../../../shared/families/chat/contract';
import type { StreamContext } from '../../../main/host/handlers';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

interface FakeDeferred {
  url: string;
  outage: 'network' | 'busy' | null;
  /** Set as `outage` the moment a create is answered (a test setting it later races the first polls). */
  outageAfterCreate: 'network' | null;
  creates: number;
  polls: number;
  close(): Promise<void>;
}

/** Accepts deferred chats and answers the second poll of each; `outage` takes it all away. */
async function startFakeDeferred(): Promise<FakeDeferred> {
  const fake: FakeDeferred = { url: '', outage: null, outageAfterCreate: null, creates: 0, polls: 0, close: async () => undefined };
  const seen = new Map<string, number>();
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    if (fake.outage === 'network') return req.socket.destroy();
    if (fake.outage === 'busy') {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      return res.end(JSON.stringify({ code: 'The service is currently unavailable', error: 'down for maintenance' }));
    }
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        fake.creates += 1;
        json(res, 200, { request_id: `req-${req.headers['idempotency-key']}` });
        if (fake.outageAfterCreate) fake.outage = fake.outageAfterCreate;
        return;
      }
      const poll = /^\/v1\/chat\/deferred-completion\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && poll) {
        fake.polls += 1;
        const n = (seen.get(poll[1]!) ?? 0) + 1;
        seen.set(poll[1]!, n);
        if (n < 2) return json(res, 202, {});
        return json(res, 200, {
          id: poll[1],
          object: 'chat.completion',
          created: 1,
          model: 'svc-4',
          choices: [{ index: 0, message: { role: 'assistant', content: 'back again' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        });
      }
      json(res, 404, { error: 'no route' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return fake;
}

describe('a deferred chat during an outage', () => {
  let fake: FakeDeferred;
  let app: App;
  let dataDir: string;

  beforeAll(async () => {
    fake = await startFakeDeferred();
    dataDir = mkdtempSync(join(tmpdir(), 'wb-deferred-outage-'));
    app = await createApp({
      dataDir,
      shell: 'browser',
      keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
      emit: () => undefined,
      log: () => undefined,
      version: 'test',
      sandboxTokenDelayMs: 0,
      deferredPollMs: 20,
      jobBackoffScale: 0.001,
    });
    const profile = await app.handlers.connections.save({ name: 'Fake deferred', baseUrl: fake.url, apiKey: 'sk-fake-deferred-0001' }, CTX);
    await app.handlers.connections.select({ id: profile.id }, CTX);
  });
  afterAll(async () => {
    await app?.dispose();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits (saying why and until when) however long the service is away, Retry now tries at once, and records the answer once it is back', async () => {
    const chunks: ChatStreamChunk[] = [];
    const ctx: StreamContext<ChatStreamChunk> = { sessionId: 'w1', streamId: 's1', signal: new AbortController().signal, emit: (c) => chunks.push(c) };
    // Down before the first poll: the create is answered, then nothing.
    fake.outageAfterCreate = 'network';
    const following = app.handlers.chat.send({ request: { model: 'svc-4', messages: [{ role: 'user', content: 'hello?' }], deferred: true } }, ctx);
    await expect.poll(() => fake.creates).toBe(1);
    const waits = () => chunks.flatMap((c) => (c.type === 'waiting' && c.wait ? [c.wait] : []));
    await expect.poll(() => waits().at(-1)?.failures ?? 0, { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(3);
    expect(waits().at(-1)).toMatchObject({ reason: expect.stringMatching(/cannot reach the service/), since: expect.any(Number) });

    fake.outage = 'busy';
    // Far past the 8 attempts that used to end a deferred chat.
    await expect.poll(() => waits().at(-1)?.failures ?? 0, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(15);
    const last = waits().at(-1)!;
    expect(last.reason).toMatch(/unavailable or failing \(503\)/);
    expect(last.message).toMatch(/503/);
    const { jobId, runId } = chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>;
    expect((await app.handlers.history.get({ id: runId }, CTX)).status).toBe('pending');
    expect(app.handlers.jobs.retryNow({ id: jobId! }, CTX)).toMatchObject({ id: jobId, wait: { failures: expect.any(Number) } });

    fake.outage = null;
    const record = await following;
    expect(record).toMatchObject({ id: runId, status: 'completed', error: null, output: { choices: [{ message: { content: 'back again' } }] } });
    // The window heard the wait end.
    expect(chunks.filter((c) => c.type === 'waiting').at(-1)).toEqual({ type: 'waiting', wait: null });
    const job = await app.handlers.jobs.get({ id: jobId! }, CTX);
    expect(job).toMatchObject({ state: 'completed', wait: null });
    expect(job.events.filter((e) => e.state === 'retrying').length).toBeGreaterThanOrEqual(15);
    expect(fake.creates).toBe(1);
  }, 90_000);
});

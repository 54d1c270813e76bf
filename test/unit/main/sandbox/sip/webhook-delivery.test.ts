/**
 * `realtime.call.incoming` delivered to a receiver in the test: the wire-notes §6.5 payload,
 * signed per Standard Webhooks (verified with the kept `standardwebhooks` package; another
 * number's secret and a moved clock fail it), retried on non-2xx with the same webhook-id, bounded,
 * every attempt on the call's status; answering the call stops the retries.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let h: Harness;
let server: Server;
let base = '';
const received: Received[] = [];
/** Status per path: a list consumed one per delivery (the last one repeats). */
const answers = new Map<string, number[]>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const list = answers.get(path) ?? [200];
      const status = list.length > 1 ? (list.shift() as number) : list[0];
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await startHarness({ sip: { webhookRetryDelaysMs: [30, 30, 30, 30] } });
});
afterAll(async () => {
  await h.sandbox.close();
  await new Promise((resolve) => server.close(resolve));
});

let next = 200;
/** Registers a number whose webhook goes to `path`; returns it and its secret. */
async function register(path: string): Promise<{ phone: string; secret: string }> {
  const phone = `+1800555${next++}`;
  const res = await h.post('/v2/phone-numbers', { origin: 'byo_trunk', name: path, phone_number: phone, webhook: { url: `${base}${path}` }, sip_auth: { allowed_addresses: ['127.0.0.1/32'] } });
  expect(res.status).toBe(200);
  return { phone, secret: ((await res.json()) as { webhook: { dispatch_signing_secret: string } }).webhook.dispatch_signing_secret };
}

async function place(phone: string): Promise<string> {
  const res = await h.post('/sandbox/calls', { to: phone, from: '+14155550100', script: { hangup_after_ms: null } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { call_id: string }).call_id;
}

async function status(id: string): Promise<Record<string, any>> {
  return (await (await h.get(`/sandbox/calls/${id}`)).json()) as Record<string, any>;
}

/** Waits (not a timing assertion) until the delivery is over. */
async function settled(id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 500; i++) {
    const s = await status(id);
    if (s.webhook.state !== 'delivering') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the delivery never settled');
}

const at = (path: string) => received.filter((r) => r.path === path);

describe('realtime.call.incoming delivery', () => {
  it('posts the §6.5 payload, signed so standardwebhooks verifies it with the number\'s secret', async () => {
    const { phone, secret } = await register('/ok');
    const id = await place(phone);
    const s = await settled(id);
    expect(s.webhook).toMatchObject({ state: 'delivered', attempts: [{ attempt: 1, status: 200, error: null }] });
    const [got] = at('/ok');
    expect(got.headers['content-type']).toBe('application/json');
    const payload = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Record<string, any>;
    expect(payload).toEqual({
      object: 'event',
      id: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      type: 'realtime.call.incoming',
      created_at: expect.any(Number),
      data: { call_id: id, sip_headers: [{ name: 'From', value: '+14155550100' }, { name: 'To', value: phone }], metadata: {} },
    });
    expect(got.headers['webhook-id']).toBe(s.webhook.webhook_id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    // Forged: another number's secret does not verify it; nor does a changed body.
    const other = await register('/unused');
    expect(() => new Webhook(other.secret).verify(got.body, got.headers as Record<string, string>)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(got.body.replace(phone, '+19995550100'), got.headers as Record<string, string>)).toThrow(/No matching signature/);
  });

  it('retries on non-2xx with the same webhook-id, each attempt signed afresh and kept on the call', async () => {
    const { phone, secret } = await register('/flaky');
    answers.set('/flaky', [500, 503, 404, 200]);
    const id = await place(phone);
    const s = await settled(id);
    expect(s.webhook.state).toBe('delivered');
    expect(s.webhook.attempts.map((a: { attempt: number; status: number }) => [a.attempt, a.status])).toEqual([[1, 500], [2, 503], [3, 404], [4, 200]]);
    expect(s.webhook.attempts[0].error).toBe('answered HTTP 500 Internal Server Error');
    const got = at('/flaky');
    expect(got).toHaveLength(4);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.map((g) => g.body)).size).toBe(1);
    for (const g of got) expect(() => new Webhook(secret).verify(g.body, g.headers as Record<string, string>)).not.toThrow();
  });

  it('gives up after the last retry (bounded), and a host nobody listens on is a failure too', async () => {
    const { phone } = await register('/down');
    answers.set('/down', [500]);
    const s = await settled(await place(phone));
    expect(s.webhook.state).toBe('gave_up');
    expect(s.webhook.attempts).toHaveLength(5);
    expect(at('/down')).toHaveLength(5);
    const res = await h.post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'nowhere', webhook: { url: 'http://127.0.0.1:9/hook' } });
    const nowhere = ((await res.json()) as { phone_number: { phone_number: string } }).phone_number.phone_number;
    const n = await settled(await place(nowhere));
    expect(n.webhook.attempts).toHaveLength(5);
    expect(n.webhook.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/^could not be reached \(/) });
  });

  it('stops retrying once the call is answered', async () => {
    const { phone } = await register('/slow-answer');
    answers.set('/slow-answer', [500]);
    const id = await place(phone);
    const link = h.sandbox.calls.find(id, 'team-a');
    // Joined at once: an attempt already in flight may finish, then no more.
    const joined = link?.join({ audio: () => undefined, dtmf: () => undefined, ended: () => undefined });
    expect(joined?.ok).toBe(true);
    const s = await settled(id);
    expect(s.webhook.state).toBe('stopped');
    expect(s.webhook.attempts.length).toBeLessThanOrEqual(1);
    if (joined?.ok) joined.call.hangup();
  });

  it('stamps the sandbox clock: after /sandbox/clock/advance a receiver refuses the delivery as stale', async () => {
    const { phone, secret } = await register('/stale');
    expect((await h.post('/sandbox/clock/advance', { seconds: 600 })).status).toBe(200);
    await settled(await place(phone));
    const [got] = at('/stale');
    expect(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toThrow(/too new/);
  });
});

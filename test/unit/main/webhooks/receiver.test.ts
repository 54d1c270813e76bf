/**
 * The loopback webhook receiver over real HTTP: deliveries signed with standardwebhooks as the
 * service signs them, and what the receiver answers and hands on for each kind of delivery.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH, WebhookReceiver, type IncomingCall } from '../../../../main/webhooks/receiver';
import { SecretRing } from '../../../../main/webhooks/secret-ring';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const SECRET = newSecret();

function incoming(callId: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    object: 'event',
    id: `evt_${callId}`,
    type: 'realtime.call.incoming',
    created_at: Math.floor(Date.now() / 1000),
    data: { call_id: callId, sip_headers: [{ name: 'From', value: '+14155550100' }, { name: 'To', value: '"Support" <sip:+18005550199@sip.example.com>;tag=9' }], metadata: {} },
    ...extra,
  });
}

function signed(secret: string, body: string, opts: { id?: string; atMs?: number } = {}): Record<string, string> {
  const id = opts.id ?? `msg_${randomBytes(8).toString('hex')}`;
  const at = opts.atMs ?? Date.now();
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at / 1000)), 'webhook-signature': new Webhook(secret).sign(id, new Date(at), body) };
}

let ringNow = 0;
let ring: SecretRing;
let receiver: WebhookReceiver;
let calls: IncomingCall[];
let failNext = false;
const logs: string[] = [];

beforeEach(async () => {
  ringNow = 1_000_000;
  ring = new SecretRing(() => ringNow);
  ring.set('pn_1', SECRET);
  calls = [];
  failNext = false;
  receiver = new WebhookReceiver({
    secrets: ring,
    log: (l) => logs.push(l),
    onIncomingCall: (call) => {
      if (failNext) {
        failNext = false;
        throw new Error('the live registry is shutting down');
      }
      calls.push(call);
    },
  });
  await receiver.start();
});
afterEach(() => receiver.stop());

async function post(body: string, headers: Record<string, string>, path = WEBHOOK_PATH) {
  const url = receiver.status().url!.replace(WEBHOOK_PATH, path);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('WebhookReceiver', () => {
  it('listens on loopback and shows its URL', () => {
    const s = receiver.status();
    expect(s.state).toBe('listening');
    expect(s.url).toBe(`http://127.0.0.1:${s.port}${WEBHOOK_PATH}`);
  });

  it('takes a valid delivery: the call with its caller and number', async () => {
    const body = incoming('call_a');
    const headers = signed(SECRET, body);
    const res = await post(body, headers);
    expect(res.status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId: 'call_a', from: '+14155550100', to: '+18005550199', webhookId: headers['webhook-id'], secretId: 'pn_1' });
    expect(receiver.status().counts.handled).toBe(1);
  });

  it('refuses a forged delivery (another secret, or a body changed after signing) with 401', async () => {
    const body = incoming('call_f');
    const forged = await post(body, signed(newSecret(), body));
    expect(forged.status).toBe(401);
    expect(String(forged.json.error)).toMatch(/signature matches none/);
    const tampered = await post(incoming('call_g'), signed(SECRET, body));
    expect(tampered.status).toBe(401);
    expect(calls).toHaveLength(0);
    expect(receiver.status().counts.refused).toBe(2);
  });

  it('refuses stale and future deliveries (beyond ±5 minutes) with 401, even when correctly signed', async () => {
    const body = incoming('call_s');
    const old = await post(body, signed(SECRET, body, { atMs: Date.now() - 6 * 60_000 }));
    expect(old.status).toBe(401);
    expect(String(old.json.error)).toMatch(/6 minutes old/);
    const future = await post(body, signed(SECRET, body, { atMs: Date.now() + 6 * 60_000 }));
    expect(future.status).toBe(401);
    expect(String(future.json.error)).toMatch(/in the future/);
    // Inside the window it passes.
    expect((await post(body, signed(SECRET, body, { atMs: Date.now() - 4 * 60_000 }))).status).toBe(200);
    expect(calls.map((c) => c.callId)).toEqual(['call_s']);
  });

  it('accepts the old and the new secret during a rotation, then only the new one', async () => {
    const next = newSecret();
    ring.rotate('pn_1', next, 60_000);
    const a = incoming('call_old');
    const b = incoming('call_new');
    expect((await post(a, signed(SECRET, a))).status).toBe(200);
    expect((await post(b, signed(next, b))).status).toBe(200);
    expect(calls.map((c) => c.secretId)).toEqual(['pn_1:previous', 'pn_1']);
    ringNow += 60_001;
    const c = incoming('call_late');
    expect((await post(c, signed(SECRET, c))).status).toBe(401);
    expect((await post(c, signed(next, c))).status).toBe(200);
    expect(calls).toHaveLength(3);
  });

  it('answers a replayed webhook-id with 200 and does nothing', async () => {
    const body = incoming('call_r');
    const headers = signed(SECRET, body);
    expect((await post(body, headers)).status).toBe(200);
    const again = await post(body, headers);
    expect(again.status).toBe(200);
    expect(again.json.outcome).toBe('duplicate');
    // A retry carries the same id with a fresh timestamp and signature: still a repeat.
    expect((await post(body, signed(SECRET, body, { id: headers['webhook-id'] }))).json.outcome).toBe('duplicate');
    expect(calls).toHaveLength(1);
    expect(receiver.status().counts).toMatchObject({ handled: 1, duplicate: 2 });
  });

  it('refuses malformed deliveries with 400: no signature headers, a bad timestamp, a signed body that is not the event', async () => {
    const body = incoming('call_m');
    const bare = await post(body, {});
    expect(bare.status).toBe(400);
    expect(String(bare.json.error)).toMatch(/webhook-id, webhook-timestamp, webhook-signature/);
    expect((await post(body, { ...signed(SECRET, body), 'webhook-timestamp': 'yesterday' })).status).toBe(400);
    const notJson = 'not json {';
    expect((await post(notJson, signed(SECRET, notJson))).status).toBe(400);
    const noCallId = JSON.stringify({ id: 'evt_x', type: 'realtime.call.incoming', data: { sip_headers: [] } });
    const res = await post(noCallId, signed(SECRET, noCallId));
    expect(res.status).toBe(400);
    expect(String(res.json.error)).toMatch(/call_id/);
    expect(calls).toHaveLength(0);
  });

  it('takes a signed event of another type without acting on it', async () => {
    const body = JSON.stringify({ id: 'evt_o', type: 'realtime.call.ended', data: {} });
    const res = await post(body, signed(SECRET, body));
    expect(res).toMatchObject({ status: 200, json: { outcome: 'ignored' } });
    expect(calls).toHaveLength(0);
  });

  it('answers 500 when the call cannot be taken, and handles the retry of the same id', async () => {
    const body = incoming('call_retry');
    const headers = signed(SECRET, body);
    failNext = true;
    const first = await post(body, headers);
    expect(first.status).toBe(500);
    expect(String(first.json.error)).toMatch(/shutting down/);
    expect((await post(body, signed(SECRET, body, { id: headers['webhook-id'] }))).status).toBe(200);
    expect(calls.map((c) => c.callId)).toEqual(['call_retry']);
  });

  it('answers 404 elsewhere, 405 to other methods, 413 past the size cap', async () => {
    const body = incoming('call_x');
    expect((await post(body, signed(SECRET, body), '/other')).status).toBe(404);
    const get = await fetch(receiver.status().url!);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = incoming('call_big', { padding: 'x'.repeat(70 * 1024) });
    expect((await post(big, signed(SECRET, big))).status).toBe(413);
    expect(calls).toHaveLength(0);
  });

  it('moves to another free port when the preferred one is taken', async () => {
    const other = new WebhookReceiver({ secrets: ring, log: () => {}, onIncomingCall: () => {}, port: receiver.status().port! });
    const s = await other.start();
    expect(s.state).toBe('listening');
    expect(s.port).not.toBe(receiver.status().port);
    await other.stop();
    expect(other.status()).toMatchObject({ state: 'stopped', url: null });
  });
});

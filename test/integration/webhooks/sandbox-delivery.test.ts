/**
 * The sandbox's real `realtime.call.incoming` deliveries (main/sandbox/sip/webhook.ts) reaching the
 * app's loopback receiver: a number registered with the receiver's URL, a call placed through the
 * control API, the delivery verified with the number's secret; a refused first attempt retried;
 * a moved sandbox clock making every attempt stale; a secret the app does not hold refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { WebhookReceiver, type IncomingCall } from '../../../main/webhooks/receiver';
import { SecretRing } from '../../../main/webhooks/secret-ring';

const KEY = 'sk-webhooks-1';
const NUMBER = '+18005550177';
let sb: SandboxServer;
let receiver: WebhookReceiver;
const ring = new SecretRing();
const calls: IncomingCall[] = [];
let refuseNext = 0;
const waiting: Array<() => void> = [];

beforeAll(async () => {
  receiver = new WebhookReceiver({
    secrets: ring,
    log: () => {},
    onIncomingCall: (call) => {
      if (refuseNext > 0) {
        refuseNext--;
        throw new Error('not now');
      }
      calls.push(call);
      for (const w of waiting.splice(0)) w();
    },
  });
  await receiver.start();
  sb = await startSandbox({ keys: [KEY], tokenDelayMs: 0, sip: { webhookRetryDelaysMs: [50, 50], ringTimeoutMs: 120_000 } });
});
afterAll(async () => {
  await sb.close();
  await receiver.stop();
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sb.url}${path}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

async function placeCall(to: string, from = '+14155550100'): Promise<string> {
  const placed = await api('POST', '/sandbox/calls', { to, from, script: { say: 'Hello.', hangup_after_ms: null } });
  expect(placed.status).toBe(200);
  return placed.json.call_id as string;
}

/** The call's delivery once it is no longer in progress (the sandbox's own record of attempts). */
async function settledDelivery(callId: string) {
  for (;;) {
    const { json } = await api('GET', `/sandbox/calls/${callId}`);
    if (json.webhook.state !== 'delivering') return json.webhook as { state: string; attempts: Array<{ status: number | null }> };
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox deliveries reaching the receiver', () => {
  it('registers a number at the receiver URL, and a placed call arrives verified, once', async () => {
    const registered = await api('POST', '/v2/phone-numbers', { origin: 'byo_trunk', name: 'Desk', phone_number: NUMBER, webhook: { url: receiver.status().url }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
    expect(registered.status).toBe(200);
    ring.set(registered.json.phone_number.phone_number_id, registered.json.webhook.dispatch_signing_secret);

    const arrived = new Promise<void>((r) => waiting.push(r));
    const callId = await placeCall(NUMBER);
    await arrived;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ callId, from: '+14155550100', to: NUMBER, secretId: registered.json.phone_number.phone_number_id });
    const delivery = await settledDelivery(callId);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: [{ status: 200 }] });
  });

  it('a first attempt the app cannot take (500) is retried by the sandbox and handled once', async () => {
    refuseNext = 1;
    const arrived = new Promise<void>((r) => waiting.push(r));
    const callId = await placeCall(NUMBER, '+14155550111');
    await arrived;
    expect(calls.filter((c) => c.callId === callId)).toHaveLength(1);
    const delivery = await settledDelivery(callId);
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 200]);
    await api('POST', `/v1/realtime/calls/${callId}/hangup`);
  });

  it('a delivery signed with a secret the app does not hold is refused as forged on every attempt', async () => {
    const other = await api('POST', '/v2/phone-numbers', { origin: 'byo_trunk', name: 'Unknown', phone_number: '+18005550178', webhook: { url: receiver.status().url }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } });
    expect(other.status).toBe(200);
    const before = calls.length;
    const callId = await placeCall('+18005550178');
    const delivery = await settledDelivery(callId);
    expect(delivery.state).toBe('gave_up');
    expect(delivery.attempts.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(calls).toHaveLength(before);
    expect(receiver.status().recent.at(-1)?.message).toMatch(/signature matches none/);
  });

  it('after the sandbox clock moves 10 minutes on, its deliveries are stale and refused', async () => {
    expect((await api('POST', '/sandbox/clock/advance', { seconds: 600 })).status).toBe(200);
    const before = calls.length;
    const callId = await placeCall(NUMBER, '+14155550122');
    const delivery = await settledDelivery(callId);
    expect(delivery.attempts.map((a) => a.status)).toEqual([401, 401, 401]);
    expect(calls).toHaveLength(before);
    expect(receiver.status().recent.at(-1)?.message).toMatch(/10 minutes in the future/);
  });
});

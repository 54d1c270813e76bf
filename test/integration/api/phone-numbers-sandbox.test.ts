/**
 * The phone-number and call-control client against the real sandbox: register (the secret in
 * the answer, once), list (no secrets), the service's refusals in its own words (409 already
 * registered, a bad E.164 number, a bad CIDR block), a refer target refused before sending, and
 * hangup declining a ringing call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/api/client';
import { createPhoneNumber, hangupCall, listPhoneNumbers, referCall } from '../../../main/api/phone-numbers';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';

const KEY = 'sk-phone-numbers';
let sandbox: SandboxServer;
let client: ApiClient;

beforeAll(async () => {
  sandbox = await startSandbox({ keys: [KEY], tokenDelayMs: 0 });
  client = new ApiClient({ baseUrl: sandbox.url, apiKey: KEY, sleep: async () => undefined });
});
afterAll(async () => {
  await client.dispose();
  await sandbox.close();
});

const desk = { origin: 'byo_trunk' as const, name: 'Desk', phone_number: '+18005550160', webhook: { url: 'http://127.0.0.1:9/webhooks/sip' }, sip_auth: { allowed_addresses: ['203.0.113.0/24'] } };

describe('phone numbers against the sandbox', () => {
  it('registers a number (the signing secret given once) and lists it without the secret', async () => {
    const made = await createPhoneNumber(client, desk);
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.value.phone_number).toMatchObject({ phone_number: '+18005550160', name: 'Desk', origin: 'byo_trunk', sip_auth: { allowed_addresses: ['203.0.113.0/24'] } });
    expect(made.value.webhook.dispatch_signing_secret).toMatch(/^whsec_/);
    const listed = await listPhoneNumbers(client);
    expect(listed.ok && listed.value.phone_numbers.map((n) => n.phone_number)).toEqual(['+18005550160']);
    expect(JSON.stringify(listed.ok && listed.value)).not.toContain(made.value.webhook.dispatch_signing_secret);
  });

  it('gives the service\'s own words for a number already registered, a bad number and a bad CIDR block', async () => {
    const again = await createPhoneNumber(client, desk);
    expect(again.ok).toBe(false);
    if (again.ok) return;
    expect(again.error.status).toBe(409);
    expect(again.error.message).toMatch(/^\+18005550160 is already registered \(409: Phone number \+18005550160 is already registered \(your team registered it as \S+ \("Desk"\)\); a number can be registered once\)\. It is not registered again: .*list of numbers/);
    const badNumber = await createPhoneNumber(client, { ...desk, phone_number: '+1 800 555 0161' });
    expect(!badNumber.ok && badNumber.error).toMatchObject({ status: 400 });
    expect(!badNumber.ok && badNumber.error.message).toMatch(/is not an E.164 phone number.*did you mean "\+18005550161"/);
    const badCidr = await createPhoneNumber(client, { ...desk, phone_number: '+18005550162', sip_auth: { allowed_addresses: ['203.0.113.7/24'] } });
    expect(!badCidr.ok && badCidr.error.status).toBe(400);
    expect(!badCidr.ok && badCidr.error.message).toMatch(/allowed_addresses\[0\]/);
  });

  it('sends a registration once: a 409 is not retried, nor a 503, and a timeout says the number may be registered', async () => {
    const retries: number[] = [];
    const onRetry = (info: { attempt: number }) => void retries.push(info.attempt);
    const again = await createPhoneNumber(client, desk, { onRetry });
    expect(!again.ok && again.error.status).toBe(409);
    const failing = await createPhoneNumber(client, { ...desk, phone_number: '+18005550163' }, { onRetry, headers: { 'x-sandbox-fault': 'status=503;times=1' } });
    expect(!failing.ok && failing.error.status).toBe(503);
    expect(failing.retries).toBe(0);
    // Not sent again: the number is free, registered by the next try.
    const listed = await listPhoneNumbers(client);
    expect(listed.ok && listed.value.phone_numbers.map((n) => n.phone_number)).not.toContain('+18005550163');

    const impatient = new ApiClient({ baseUrl: sandbox.url, apiKey: KEY, headersTimeoutMs: 100, sleep: async () => undefined });
    const slow = await createPhoneNumber(impatient, { ...desk, phone_number: '+18005550164' }, { onRetry, headers: { 'x-sandbox-fault': 'delay=1000' } });
    await impatient.dispose();
    expect(!slow.ok && slow.error.kind).toBe('timeout');
    expect(!slow.ok && slow.error.message).toMatch(/may have been made all the same.*refresh the list of numbers before registering \+18005550164 again/);
    expect(retries).toEqual([]);
  });

  it('refuses a bad refer target before sending, and hangup declines a ringing call', async () => {
    const refused = await referCall(client, 'call_x', 'tel:4155550123');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.kind).toBe('invalid_request');
    expect(!refused.ok && refused.meta).toBeNull();

    const placed = await fetch(`${sandbox.url}/sandbox/calls`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ to: '+18005550160', from: '+14155550100', script: { say: 'Hi.' } }) });
    const { call_id: callId } = (await placed.json()) as { call_id: string };
    const referRinging = await referCall(client, callId, 'tel:+14155550123');
    expect(!referRinging.ok && referRinging.error.status).toBe(409);
    const hung = await hangupCall(client, callId);
    expect(hung.ok).toBe(true);
    const state = (await (await fetch(`${sandbox.url}/sandbox/calls/${callId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { state: string };
    expect(state.state).toBe('ended');
  });
});

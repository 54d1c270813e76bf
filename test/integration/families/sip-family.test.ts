/**
 * The SIP family in the built app (createApp, its embedded sandbox): a number registered with the
 * receiver's loopback URL (started for it), its secret shown once and kept in the key store and
 * nowhere in SQLite, a simulated call ringing with no window (the `sip.ringing` event), the
 * service's 409 in its own words, a ringing call declined; after a restart the receiver listens
 * again on the same port and verifies the kept number's calls without registering again.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import { SipRegisterSchema, type SipCall } from '../../../shared/families/sip/contract';
import { WorkbenchFailure } from '../../../shared/contract/errors';

const NUMBER = '+18005550190';
let dataDir: string;
let app: App;
const rang: SipCall[] = [];
const events: SipCall[] = [];
const notes: string[] = [];
let onRing: () => void = () => {};

async function open(): Promise<App> {
  return createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: ((channel: string, payload: unknown) => {
      if (channel === 'sip.callChanged') {
        events.push(payload as SipCall);
        if ((payload as SipCall).state === 'ringing') {
          rang.push(payload as SipCall);
          onRing();
        }
      }
    }) as never,
    log: () => undefined,
    notify: (title, body) => notes.push(`${title}: ${body}`),
    version: 'sip-test',
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wb-sip-'));
  app = await open();
});
afterAll(async () => {
  await app.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandboxCall = async (path: string, body?: unknown) => {
  const { sandbox } = await app.handlers.connections.list(undefined as never, {} as never);
  const res = await fetch(`http://127.0.0.1:${sandbox.port}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as Record<string, any>;
};

async function ring(from: string): Promise<SipCall> {
  const arrived = new Promise<void>((resolve) => (onRing = resolve));
  const placed = await sandboxCall('/sandbox/calls', { to: NUMBER, from, script: { say: 'Hello.' } });
  await arrived;
  const call = rang.at(-1)!;
  expect(call).toMatchObject({ callId: placed.call_id, from, to: NUMBER });
  return call;
}

describe('the SIP family', () => {
  let secret = '';
  let port = 0;

  it('registers a number at the receiver, started for it; the secret kept with the keys, never in SQLite', async () => {
    const sip = app.handlers.sip;
    const made = await sip.register({ origin: 'byo_trunk', name: 'Front desk', phoneNumber: NUMBER, allowedAddresses: ['127.0.0.0/8'] }, {} as never);
    expect(made.receiver.state).toBe('listening');
    port = made.receiver.port!;
    secret = made.signingSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(made.secret).toMatchObject({ stored: true, backend: 'file' });
    expect(readFileSync(join(dataDir, 'keys.json'), 'utf8')).toContain(secret.slice(6));
    for (const f of readdirSync(dataDir).filter((n) => n.startsWith('workbench.db'))) expect(readFileSync(join(dataDir, f)).includes(secret.slice(6)), f).toBe(false);
    const listed = await sip.numbers(undefined, {} as never);
    expect(listed.numbers).toEqual([expect.objectContaining({ number: expect.objectContaining({ phone_number: NUMBER }), secretKept: true })]);
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
  });

  it('rings with no window as a sip-call live session; Answer says the console is missing; Decline hangs up and History keeps the call', async () => {
    const call = await ring('+14155550100');
    // The receiver counts the delivery once it has answered (after the call rang).
    while ((await app.handlers.sip.receiver(undefined, {} as never)).counts.handled === 0) await new Promise((r) => setTimeout(r, 10));
    expect((await app.handlers.sip.receiver(undefined, {} as never)).counts).toMatchObject({ handled: 1, refused: 0 });
    expect(notes).toEqual([`Incoming call: +14155550100 is calling ${NUMBER}. Answer or decline it in Phone (SIP).`]);
    expect(app.live.list()).toEqual([expect.objectContaining({ id: call.liveSessionId, kind: 'sip-call', origin: 'main', state: 'ringing' })]);
    expect(await app.handlers.sip.calls(undefined, {} as never)).toEqual([expect.objectContaining({ callId: call.callId, state: 'ringing' })]);

    await expect(app.handlers.sip.answer({ callId: call.callId }, {} as never)).rejects.toMatchObject({ error: { message: expect.stringMatching(/call console is not available/) } });
    expect(events.at(-1)).toMatchObject({ callId: call.callId, state: 'ringing', problem: expect.stringMatching(/console/) });

    await app.handlers.sip.decline({ callId: call.callId }, {} as never);
    expect((await sandboxCall(`/sandbox/calls/${call.callId}`)).state).toBe('ended');
    expect(events.filter((e) => e.callId === call.callId).map((e) => e.state)).toEqual(['ringing', 'ringing', 'declined']);
    while (app.live.list().some((s) => s.id === call.liveSessionId && s.status !== 'ended')) await new Promise((r) => setTimeout(r, 10));
    expect(await app.handlers.sip.calls(undefined, {} as never)).toEqual([]);

    const page = await app.handlers.history.search({ endpoint: 'sip.call', limit: 10 }, {} as never);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ status: 'completed', promptPreview: `Incoming call from +14155550100 to ${NUMBER}`, outputPreview: 'Declined' });
    const record = await app.handlers.history.get({ id: page.items[0].id }, {} as never);
    expect(record.status).toBe('completed');
    expect(record.request.url).toContain(`/v1/realtime/calls/${call.callId}/hangup`);
    const logged = await app.handlers.history.events({ id: page.items[0].id, offset: 0, limit: 10 }, {} as never);
    expect(JSON.stringify(logged)).toContain('realtime.call.incoming');
    expect(JSON.stringify(logged)).toContain('decline');
  });

  it("shows the service's 409 for a number already registered", async () => {
    const again = app.handlers.sip.register({ origin: 'byo_trunk', name: 'Again', phoneNumber: NUMBER, allowedAddresses: ['127.0.0.0/8'] }, {} as never);
    await expect(again).rejects.toBeInstanceOf(WorkbenchFailure);
    await expect(again).rejects.toMatchObject({ error: { status: 409, message: expect.stringMatching(/already registered/) } });
  });

  it('registers a trunk with digest credentials only (sip_auth as the spec has it); the password is sent, never kept or listed', async () => {
    const password = 'digest-pass-7781';
    const made = await app.handlers.sip.register(SipRegisterSchema.parse({ origin: 'byo_trunk', name: 'Digest trunk', phoneNumber: '+18005550189', digest: { username: 'trunk-7781', password } }), {} as never);
    expect(made.number.sip_auth).toMatchObject({ allowed_addresses: [], username: 'trunk-7781' });
    const listed = await app.handlers.sip.numbers(undefined, {} as never);
    expect(listed.numbers.find((n) => n.number.phone_number === '+18005550189')?.number.sip_auth).toMatchObject({ username: 'trunk-7781' });
    expect(JSON.stringify([made, listed])).not.toContain(password);
    expect(readFileSync(join(dataDir, 'keys.json'), 'utf8')).not.toContain(password);
    for (const f of readdirSync(dataDir).filter((n) => n.startsWith('workbench.db'))) expect(readFileSync(join(dataDir, f)).includes(password), f).toBe(false);
    // Both or neither, checked at the contract before anything is sent.
    expect(SipRegisterSchema.safeParse({ origin: 'byo_trunk', name: 'Half', phoneNumber: '+18005550188', digest: { username: 'u' } }).success).toBe(false);
  });

  it('refuses to press keys on a connection that is not the built-in sandbox, a loopback one too, before sending anything', async () => {
    // A service's local gateway (or a tunnel) on this computer: no control API, real callers.
    const local = await app.handlers.connections.save({ name: 'Local gateway', baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-local-0001' }, {} as never);
    const pressed = app.handlers.sip.pressKeys({ callId: 'call_local', digits: '1', connectionId: local.id }, {} as never);
    await expect(pressed).rejects.toMatchObject({ error: { code: 'invalid_input', message: expect.stringMatching(/^Keys can only be pressed for the simulated caller of the built-in sandbox\. Call call_local is on "Local gateway" \(http:\/\/127\.0\.0\.1:9\), not the built-in sandbox: its caller presses keys on their own phone/) } });
    await app.handlers.connections.remove({ id: local.id }, {} as never);
  });

  it('verifies a number registered elsewhere once its secret is given by hand, and accepts the old secret after a rotation', async () => {
    const { sandbox } = await app.handlers.connections.list(undefined as never, {} as never);
    const url = (await app.handlers.sip.receiver(undefined, {} as never)).url!;
    const res = await fetch(`http://127.0.0.1:${sandbox.port}/v2/phone-numbers`, { method: 'POST', headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ origin: 'byo_trunk', name: 'Elsewhere', phone_number: '+18005550191', webhook: { url }, sip_auth: { allowed_addresses: ['127.0.0.0/8'] } }) });
    const made = (await res.json()) as { phone_number: { phone_number_id: string }; webhook: { dispatch_signing_secret: string } };
    const place = async () => (await sandboxCall('/sandbox/calls', { to: '+18005550191', from: '+14155550133', script: { say: 'Hi.' } })).call_id as string;
    const settled = async (callId: string) => {
      for (;;) {
        const { webhook } = await sandboxCall(`/sandbox/calls/${callId}`);
        if (webhook.attempts.length > 0) return webhook.attempts[0].status as number;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const refused = await place();
    expect(await settled(refused)).toBe(401);
    await sandboxCall(`/v1/realtime/calls/${refused}/hangup`, {});

    const kept = await app.handlers.sip.keepSecret({ phoneNumberId: made.phone_number.phone_number_id, phoneNumber: '+18005550191', webhookUrl: url, secret: made.webhook.dispatch_signing_secret }, {} as never);
    expect(kept).toMatchObject({ rotated: false, secret: { stored: true } });
    const first = await place();
    expect(await settled(first)).toBe(200);
    await app.handlers.sip.hangup({ callId: first }, {} as never);

    // A new secret given: the service still signs with the old one, which passes during the grace.
    const rotated = await app.handlers.sip.keepSecret({ phoneNumberId: made.phone_number.phone_number_id, phoneNumber: '+18005550191', webhookUrl: '', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` }, {} as never);
    expect(rotated.rotated).toBe(true);
    const second = await place();
    expect(await settled(second)).toBe(200);
    await app.handlers.sip.hangup({ callId: second }, {} as never);
  });

  it('after a restart listens on the same port and verifies the kept number without registering again', async () => {
    await app.dispose();
    expect(existsSync(join(dataDir, 'keys.json'))).toBe(true);
    app = await open();
    expect(app.handlers.sip.receiver(undefined, {} as never)).toMatchObject({ state: 'listening', port });
    const call = await ring('+14155550111');
    await app.handlers.sip.hangup({ callId: call.callId }, {} as never);
  });
});

/**
 * `POST /v2/phone-numbers` and `GET /v2/phone-numbers` over HTTP: the spec's shape with the
 * signing secret once, 409 for a number registered again (any team), per-team listings without
 * secrets, and every body rule with its status and message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { KEY, OTHER_KEY, startHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.sandbox.close());

const trunk = (over: Record<string, unknown> = {}) => ({
  origin: 'byo_trunk',
  name: 'Support SIP trunk',
  phone_number: '+18005550199',
  webhook: { name: 'Support SIP webhook', url: 'https://example.com/sip-webhook' },
  sip_auth: { allowed_addresses: ['203.0.113.0/24'] },
  ...over,
});

async function refused(body: unknown, status: number): Promise<string> {
  const res = await h.post('/v2/phone-numbers', body);
  expect(res.status).toBe(status);
  return ((await res.json()) as { error: string }).error;
}

describe('phone numbers', () => {
  it('registers a byo_trunk number as the spec shapes it, the secret in the Standard Webhooks form', async () => {
    const res = await h.post('/v2/phone-numbers', trunk());
    expect(res.status).toBe(200);
    const body = (await res.json()) as { phone_number: Record<string, unknown>; webhook: Record<string, string> };
    expect(Object.keys(body.phone_number).sort()).toEqual(['created_at', 'name', 'origin', 'phone_number', 'phone_number_id', 'sip_auth', 'sip_host', 'team_id', 'updated_at', 'webhook_id']);
    expect(body.phone_number).toMatchObject({ team_id: 'team-a', phone_number: '+18005550199', name: 'Support SIP trunk', origin: 'byo_trunk', sip_auth: { allowed_addresses: ['203.0.113.0/24'] } });
    expect(body.phone_number.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(body.webhook.webhook_id).toBe(body.phone_number.webhook_id);
    expect(body.webhook.dispatch_signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The kept library takes it as a key (32 bytes once base64-decoded).
    expect(() => new Webhook(body.webhook.dispatch_signing_secret)).not.toThrow();
  });

  it('answers 409 for a number already registered, from the same team or another', async () => {
    expect(await refused(trunk({ name: 'Again' }), 409)).toMatch(/^Phone number \+18005550199 is already registered \(your team registered it as pn_[0-9a-f]{24} \("Support SIP trunk"\)\)/);
    const res = await fetch(`${h.sandbox.url}/v2/phone-numbers`, { method: 'POST', headers: { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(trunk()) });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toMatch(/another team registered it/);
  });

  it('provisions a fictional number for svc_provisioned when none is given; each number has its own secret', async () => {
    const a = (await (await h.post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'Sales', webhook: { url: 'http://127.0.0.1:9/hook' } })).json()) as any;
    const b = (await (await h.post('/v2/phone-numbers', { origin: 'svc_provisioned', name: 'Sales 2', webhook: { url: 'http://127.0.0.1:9/hook' } })).json()) as any;
    expect(a.phone_number.phone_number).toMatch(/^\+1\d{3}55501\d\d$/);
    expect(b.phone_number.phone_number).not.toBe(a.phone_number.phone_number);
    expect(a.phone_number.sip_auth).toEqual({ allowed_addresses: [] });
    expect(b.webhook.dispatch_signing_secret).not.toBe(a.webhook.dispatch_signing_secret);
  });

  it('keeps a digest password to itself', async () => {
    const res = await h.post('/v2/phone-numbers', trunk({ phone_number: '+442071838750', sip_auth: { username: 'trunk-user', password: 'hunter2-secret' } }));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('hunter2-secret');
    expect(JSON.parse(text).phone_number.sip_auth).toEqual({ allowed_addresses: [], username: 'trunk-user' });
  });

  it('lists the team\'s numbers without their secrets; another team sees its own', async () => {
    const res = await h.get('/v2/phone-numbers');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/whsec_|dispatch_signing_secret|hunter2/);
    const list = JSON.parse(text).phone_numbers as Array<{ phone_number: string; team_id: string }>;
    expect(list.map((n) => n.phone_number)).toEqual(['+18005550199', expect.stringMatching(/^\+1/), expect.stringMatching(/^\+1/), '+442071838750']);
    const other = await fetch(`${h.sandbox.url}/v2/phone-numbers`, { headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(((await other.json()) as { phone_numbers: unknown[] }).phone_numbers).toEqual([]);
    expect(KEY).not.toBe(OTHER_KEY);
  });

  it('answers 422 for the body\'s shape: missing or mistyped fields, unknown origin', async () => {
    expect(await refused([], 422)).toMatch(/The body must be a JSON object/);
    expect(await refused({}, 422)).toBe(
      'origin is required: "byo_trunk" (your own SIP trunk) or "svc_provisioned" (a number from the service); name is required: a label for the number, such as "Support line"; webhook is required: {"url": "https://…"}, where the service posts realtime.call.incoming for each call',
    );
    expect(await refused(trunk({ origin: 'carrier' }), 422)).toMatch(/^origin must be one of "svc_provisioned", "byo_trunk"; got "carrier"/);
    expect(await refused(trunk({ phone_number: undefined }), 422)).toMatch(/^phone_number is required with origin "byo_trunk"/);
    expect(await refused(trunk({ sip_auth: undefined }), 422)).toMatch(/^sip_auth is required with origin "byo_trunk"/);
    expect(await refused(trunk({ name: 7 }), 422)).toBe('name must be a string');
    expect(await refused(trunk({ phone_number: 18005550100 }), 422)).toMatch(/^phone_number must be a string/);
    expect(await refused(trunk({ webhook: 'https://x' }), 422)).toMatch(/^webhook must be an object/);
    expect(await refused(trunk({ webhook: { name: 'x' } }), 422)).toMatch(/^webhook.url is required/);
    expect(await refused(trunk({ sip_auth: ['203.0.113.0/24'] }), 422)).toMatch(/^sip_auth must be an object/);
    expect(await refused(trunk({ sip_auth: { allowed_addresses: '203.0.113.0/24' } }), 422)).toBe('sip_auth.allowed_addresses must be an array of CIDR blocks');
    expect(await refused(trunk({ sip_auth: { allowed_addresses: [24] } }), 422)).toMatch(/^sip_auth.allowed_addresses\[0\] must be a string/);
    expect(await refused(trunk({ sip_auth: { username: 'u', password: 5 } }), 422)).toBe('sip_auth.password must be a string');
    expect(await refused(trunk({ agent_id: 3 }), 422)).toBe('agent_id must be a string');
  });

  it('answers 400 for values that break a rule, every one in one message', async () => {
    expect(await refused(trunk({ phone_number: '18005550100' }), 400)).toMatch(/^phone_number "18005550100" is not an E\.164 phone number/);
    expect(await refused(trunk({ name: '  ' }), 400)).toBe('name must not be blank');
    expect(await refused(trunk({ name: 'n'.repeat(257) }), 400)).toBe('name is 257 characters long; the limit is 256');
    expect(await refused(trunk({ webhook: { url: 'ftp://example.com/x' } }), 400)).toBe('webhook.url "ftp://example.com/x" must use http or https, not ftp');
    expect(await refused(trunk({ webhook: { url: 'https://x.example/', name: '' } }), 400)).toBe('webhook.name must not be blank');
    expect(await refused(trunk({ sip_auth: { allowed_addresses: ['203.0.113.7/24', '10.0.0.0/8', '300.1.1.1/8'] } }), 400)).toBe(
      'sip_auth.allowed_addresses[0] "203.0.113.7/24" has host bits set: the network of that block is "203.0.113.0/24"; sip_auth.allowed_addresses[2] "300.1.1.1/8" is not a CIDR block: an IPv4 or IPv6 address, "/", and a prefix length (for example "203.0.113.0/24" or "2001:db8::/32")',
    );
    expect(await refused(trunk({ sip_auth: { allowed_addresses: Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`) } }), 400)).toBe('sip_auth.allowed_addresses has 101 blocks; at most 100');
    expect(await refused(trunk({ sip_auth: {} }), 400)).toMatch(/^sip_auth says nothing: give allowed_addresses/);
    expect(await refused(trunk({ sip_auth: { allowed_addresses: [] } }), 400)).toMatch(/^sip_auth says nothing/);
    expect(await refused(trunk({ sip_auth: { username: 'u' } }), 400)).toBe('sip_auth.password is required with sip_auth.username (digest authentication takes both)');
    expect(await refused(trunk({ sip_auth: { username: '', password: 'p' } }), 400)).toBe('sip_auth.username must be 1 to 128 characters');
    expect(await refused(trunk({ sip_auth: { allowed_addresses: ['10.0.0.0/8'], cidrs: [] } }), 400)).toBe('sip_auth has fields the service does not know: cidrs (known: allowed_addresses, username, password)');
    expect(await refused(trunk({ number: '+1' }), 400)).toBe('the body has fields the service does not know: number (known: origin, name, phone_number, webhook, sip_auth, agent_id)');
    expect(await refused(trunk({ webhook: { url: 'https://x.example/', secret: 's' } }), 400)).toMatch(/^webhook has fields the service does not know: secret/);
    // Shape and value problems together: the shape decides the status; both are listed.
    expect(await refused(trunk({ name: 5, phone_number: '123' }), 422)).toMatch(/^name must be a string; phone_number "123" is not an E\.164/);
  });

  it('needs an API key, and the usual body rules (415) apply', async () => {
    expect((await fetch(`${h.sandbox.url}/v2/phone-numbers`)).status).toBe(401);
    const res = await fetch(`${h.sandbox.url}/v2/phone-numbers`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: 'x' });
    expect(res.status).toBe(415);
  });
});

/**
 * With a state folder, registered numbers survive a restart with their webhooks and secrets (the
 * app keeps the secret it was shown once): listed again, still 409 when registered again, still
 * callable; a damaged snapshot is moved aside and the sandbox starts without numbers.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHarness } from '../harness';

const dir = mkdtempSync(join(tmpdir(), 'sip-state-'));
// port: 0 each time: a kept port would let fetch reuse a pooled connection to the closed sandbox.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const body = { origin: 'byo_trunk', name: 'Kept', phone_number: '+18005550177', webhook: { url: 'http://127.0.0.1:9/hook' }, sip_auth: { username: 'trunk', password: 'pw-kept' } };

describe('phone numbers in a state folder', () => {
  it('keeps numbers, webhooks and secrets across a restart', async () => {
    const first = await startHarness({ stateDir: dir, port: 0, sip: { webhookRetryDelaysMs: [] } });
    const made = (await (await first.post('/v2/phone-numbers', body)).json()) as { phone_number: Record<string, unknown>; webhook: { dispatch_signing_secret: string } };
    await first.sandbox.close();
    expect(statSync(join(dir, 'phone-numbers.json')).mode & 0o777).toBe(0o600);

    const second = await startHarness({ stateDir: dir, port: 0, sip: { webhookRetryDelaysMs: [] } });
    try {
      const listed = (await (await second.get('/v2/phone-numbers')).json()) as { phone_numbers: unknown[] };
      expect(listed.phone_numbers).toEqual([made.phone_number]);
      expect((await second.post('/v2/phone-numbers', body)).status).toBe(409);
      const call = await second.post('/sandbox/calls', { to: '+18005550177', from: '+14155550100', script: {} });
      expect(call.status).toBe(200);
    } finally {
      await second.sandbox.close();
    }
  });

  it('moves a damaged snapshot aside and starts with no numbers', async () => {
    writeFileSync(join(dir, 'phone-numbers.json'), JSON.stringify({ version: 1, numbers: [{ number: { phone_number: 'not-a-number' } }] }));
    const third = await startHarness({ stateDir: dir, port: 0 });
    try {
      expect(((await (await third.get('/v2/phone-numbers')).json()) as { phone_numbers: unknown[] }).phone_numbers).toEqual([]);
      expect(readdirSync(dir).some((n) => n.startsWith('phone-numbers.json.damaged-'))).toBe(true);
      expect(existsSync(join(dir, 'phone-numbers.json'))).toBe(false);
    } finally {
      await third.sandbox.close();
    }
  });
});

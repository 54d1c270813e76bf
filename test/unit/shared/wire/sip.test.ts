import { describe, expect, it } from 'vitest';
import { incomingCallEventSchema, phoneNumberCreatedSchema, phoneNumberListSchema, sipHeader, sipParty } from '../../../../shared/wire/sip';

describe('phone number answers', () => {
  it('reads the camelCase answer one client saw from the live service as the spec\'s snake_case', () => {
    const parsed = phoneNumberCreatedSchema.parse({
      phoneNumber: { phoneNumberId: 'pn_1', phoneNumber: '+18005550199', name: 'Support', sipAuth: { allowedAddresses: ['203.0.113.0/24'] }, createdAt: '2026-01-01T00:00:00Z' },
      webhook: { webhookId: 'wh_1', dispatchSigningSecret: 'whsec_abc' },
    });
    expect(parsed.phone_number).toMatchObject({ phone_number_id: 'pn_1', phone_number: '+18005550199', sip_auth: { allowed_addresses: ['203.0.113.0/24'] }, created_at: '2026-01-01T00:00:00Z' });
    expect(parsed.webhook.dispatch_signing_secret).toBe('whsec_abc');
    expect(phoneNumberListSchema.parse({ phoneNumbers: [{ phoneNumberId: 'pn_2', phoneNumber: '+1' }] }).phone_numbers[0].phone_number_id).toBe('pn_2');
  });

  it('refuses an answer without the secret', () => {
    expect(phoneNumberCreatedSchema.safeParse({ phone_number: { phone_number_id: 'pn', phone_number: '+1' }, webhook: {} }).success).toBe(false);
  });
});

describe('realtime.call.incoming', () => {
  it('names the caller and the number from the SIP headers, bare or as SIP addresses', () => {
    const event = incomingCallEventSchema.parse({ id: 'evt', type: 'realtime.call.incoming', data: { call_id: 'c', sip_headers: [{ name: 'from', value: '"Ann" <sip:+14155550100@carrier.example>;tag=1' }, { name: 'To', value: '+18005550199' }], extra: 1 } });
    expect(sipParty(sipHeader(event, 'From'))).toBe('+14155550100');
    expect(sipParty(sipHeader(event, 'To'))).toBe('+18005550199');
    expect(sipParty(sipHeader(event, 'Contact'))).toBeNull();
    expect(sipParty('<tel:+14155550123>')).toBe('+14155550123');
  });
});

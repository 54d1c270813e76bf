/** The SIP value rules: E.164, CIDR blocks (v4 and v6, host bits), webhook URLs, refer targets, DTMF keys. */
import { describe, expect, it } from 'vitest';
import { checkCidr, checkDigits, checkE164, checkReferTarget, checkWebhookUrl } from '../../../../../main/sandbox/sip/rules';

describe('E.164', () => {
  it.each(['+14155550100', '+442071838750', '+861234567890123', '+12'])('accepts %s', (n) => expect(checkE164('to', n)).toBeNull());
  it('refuses what is not E.164, saying how to write it', () => {
    expect(checkE164('to', '14155550100')).toMatch(/^to "14155550100" is not an E\.164 phone number/);
    expect(checkE164('to', '+04155550100')).toMatch(/not an E\.164/);
    expect(checkE164('to', '+1234567890123456')).toMatch(/at most 15 digits/);
    expect(checkE164('to', '+1')).toMatch(/not an E\.164/);
    expect(checkE164('to', '+1 (415) 555-0100')).toMatch(/did you mean "\+14155550100"\?/);
    expect(checkE164('to', 14155550100)).toBe('to must be a string: a phone number in E.164 form such as "+14155550100"');
  });
});

describe('CIDR', () => {
  it.each(['203.0.113.0/24', '0.0.0.0/0', '10.1.2.3/32', '2001:db8::/32', '::/0', '::1/128', 'fe80::/10', '::ffff:192.0.2.0/120'])('accepts %s', (c) =>
    expect(checkCidr('a', c)).toBeNull(),
  );
  it('names the network when host bits are set', () => {
    expect(checkCidr('a', '203.0.113.5/24')).toBe('a "203.0.113.5/24" has host bits set: the network of that block is "203.0.113.0/24"');
    expect(checkCidr('a', '2001:db8::1/32')).toBe('a "2001:db8::1/32" has host bits set: the network of that block is "2001:db8::/32"');
  });
  it('refuses addresses, prefixes and types that are wrong', () => {
    expect(checkCidr('a', '203.0.113.0')).toMatch(/has no prefix length: write "203\.0\.113\.0\/32"/);
    expect(checkCidr('a', '203.0.113.0/33')).toMatch(/prefix length must be a whole number from 0 to 32/);
    expect(checkCidr('a', '2001:db8::/129')).toMatch(/from 0 to 128/);
    expect(checkCidr('a', '256.0.0.0/8')).toMatch(/is not a CIDR block/);
    expect(checkCidr('a', '01.2.3.4/32')).toMatch(/is not a CIDR block/);
    expect(checkCidr('a', '1:2:3:4:5:6:7:8:9/64')).toMatch(/is not a CIDR block/);
    expect(checkCidr('a', '1::2::3/64')).toMatch(/is not a CIDR block/);
    expect(checkCidr('a', 'example.com/24')).toMatch(/is not a CIDR block/);
    expect(checkCidr('a', 24)).toMatch(/must be a string/);
  });
});

describe('webhook URL', () => {
  it('takes absolute http(s) URLs', () => {
    expect(checkWebhookUrl('u', 'https://example.com/sip-webhook')).toBeNull();
    expect(checkWebhookUrl('u', 'http://127.0.0.1:4011/webhooks/sip')).toBeNull();
  });
  it('refuses other schemes, relative URLs and credentials', () => {
    expect(checkWebhookUrl('u', 'ftp://example.com/x')).toBe('u "ftp://example.com/x" must use http or https, not ftp');
    expect(checkWebhookUrl('u', '/sip-webhook')).toMatch(/is not a URL: give an absolute http\(s\) URL/);
    expect(checkWebhookUrl('u', 'https://user:pw@example.com/')).toMatch(/must not carry a user name or password/);
    expect(checkWebhookUrl('u', `https://example.com/${'a'.repeat(2100)}`)).toMatch(/the limit is 2048/);
  });
});

describe('refer target', () => {
  it.each(['tel:+14155550123', 'sip:agent@example.com', 'sip:agent@10.0.0.1:5060', 'sip:+14155550123@carrier.example.net', 'sip:a.b-c@[2001:db8::1]', 'SIP:x@host'])('accepts %s', (t) =>
    expect(checkReferTarget('target_uri', t)).toBeNull(),
  );
  it('refuses targets that cannot be dialled, saying what is wrong', () => {
    expect(checkReferTarget('target_uri', '')).toMatch(/^target_uri is required: give "tel:"/);
    expect(checkReferTarget('target_uri', '+14155550123')).toMatch(/must start with "tel:" or "sip:"/);
    expect(checkReferTarget('target_uri', 'tel:4155550123')).toMatch(/target_uri "tel:4155550123": the number "4155550123" is not an E\.164/);
    expect(checkReferTarget('target_uri', 'sip:example.com')).toMatch(/has no user/);
    expect(checkReferTarget('target_uri', 'sip:ag ent@example.com')).toMatch(/user part has characters/);
    expect(checkReferTarget('target_uri', 'sip:agent@exa_mple.com')).toMatch(/is not a host name or IP address/);
    expect(checkReferTarget('target_uri', 'sip:agent@host:70000')).toMatch(/is not a host name/);
    expect(checkReferTarget('target_uri', 'https://example.com')).toMatch(/must start with "tel:" or "sip:"/);
  });
});

describe('DTMF keys', () => {
  it('takes 0-9, *, #, A-D (any case)', () => expect(checkDigits('digits', '0123456789*#ABCDabcd', 32)).toBeNull());
  it('names the keys a keypad does not have', () => {
    expect(checkDigits('digits', '12x#e', 32)).toBe('digits "12x#e" has keys a keypad does not have ("x", "e"): use 0-9, *, # and A-D');
    expect(checkDigits('digits', '', 32)).toMatch(/is empty/);
    expect(checkDigits('digits', '1'.repeat(33), 32)).toMatch(/has 33 keys; at most 32 at once/);
    expect(checkDigits('digits', 5, 32)).toMatch(/must be a string of keypad keys/);
  });
});

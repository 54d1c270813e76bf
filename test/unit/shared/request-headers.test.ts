import { describe, expect, it } from 'vitest';
import { appOwnedReason, headerProblem, isSecretHeader } from '../../../shared/request-headers';
import { ExtraHeadersSchema } from '../../../shared/contract/text';

describe('request-headers', () => {
  describe('isSecretHeader()', () => {
    it('treats names with key, token, secret, authorization, cookie or password as secret, not an Idempotency-Key', () => {
      const names = ['Authorization', 'X-Api-Key', 'x-upstream-token', 'X-Client-Secret', 'Cookie', 'x-proxy-password', 'Idempotency-Key', 'x-trace-id', 'x-sandbox-fault'];
      expect(names.filter(isSecretHeader)).toEqual(['Authorization', 'X-Api-Key', 'x-upstream-token', 'X-Client-Secret', 'Cookie', 'x-proxy-password']);
    });
  });

  describe('headerProblem()', () => {
    it('refuses the headers the app owns, each with why', () => {
      for (const name of ['Authorization', 'content-type', 'Content-Length', 'HOST', 'x-api-key']) {
        expect(headerProblem(name, 'x')).toBe(`${name} cannot be set here: ${appOwnedReason(name)}`);
      }
      expect(appOwnedReason('Authorization')).toMatch(/Connections/);
    });

    it('explains names and values that cannot be sent, and accepts the rest', () => {
      expect(headerProblem('', 'v')).toBe('give the header a name');
      expect(headerProblem('x header', 'v')).toMatch(/letters, digits and dashes/);
      expect(headerProblem('x-a', 'one\r\nInjected: yes')).toBe('header values cannot contain line breaks');
      expect(headerProblem('x-a', 'café')).toMatch(/printable ASCII/);
      expect(headerProblem('x-a', 'x'.repeat(2049))).toMatch(/at most 2048/);
      expect([headerProblem('x-sandbox-fault', 'status=503;times=1'), headerProblem('Cookie', 'a=b'), headerProblem('x-a', '')]).toEqual([null, null, null]);
    });
  });

  describe('ExtraHeadersSchema', () => {
    it('refuses an app-owned or repeated header with the reason, at its name', () => {
      const result = ExtraHeadersSchema.safeParse({ 'x-ok': '1', Host: 'evil.example', 'X-Dup': 'a', 'x-dup': 'b' });
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['Host', `Host cannot be set here: ${appOwnedReason('host')}`],
        ['x-dup', 'x-dup is given twice'],
      ]);
      expect(ExtraHeadersSchema.safeParse({ 'x-sandbox-fault': 'delay=300', 'x-upstream-token': 't' }).success).toBe(true);
    });
  });
});

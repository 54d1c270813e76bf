import { describe, expect, it } from 'vitest';
import { newAccessToken, tokenFromAuthorization, tokenFromProtocols, tokensMatch } from '../../../../main/host/token';

describe('token', () => {
  describe('newAccessToken()', () => {
    it('makes 256-bit URL-safe tokens that differ every time', () => {
      const a = newAccessToken();
      expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(newAccessToken()).not.toBe(a);
    });
  });

  describe('tokensMatch()', () => {
    it('matches only the exact token', () => {
      expect(tokensMatch('abc', 'abc')).toBe(true);
      for (const offered of ['abd', 'ab', 'abcd', '', null, undefined]) expect(tokensMatch('abc', offered)).toBe(false);
    });
  });

  describe('tokenFromProtocols()', () => {
    it('finds the token among the offered subprotocols', () => {
      expect(tokenFromProtocols('workbench, token.a-b_c')).toBe('a-b_c');
      expect(tokenFromProtocols('workbench')).toBeNull();
      expect(tokenFromProtocols(undefined)).toBeNull();
    });
  });

  describe('tokenFromAuthorization()', () => {
    it('reads a bearer token', () => {
      expect(tokenFromAuthorization('Bearer xyz')).toBe('xyz');
      expect(tokenFromAuthorization('Basic xyz')).toBeNull();
    });
  });
});

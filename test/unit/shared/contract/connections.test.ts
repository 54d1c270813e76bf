import { describe, expect, it } from 'vitest';
import { apiKeyProblem, baseUrlProblem, SaveConnectionSchema } from '../../../../shared/contract/connections';

const messagesOf = (input: unknown): string[] => {
  const parsed = SaveConnectionSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('connections contract', () => {
  describe('base URL', () => {
    it('refuses a user name or password in the URL, naming where the key goes', () => {
      for (const baseUrl of ['http://user:secret@localhost:8080', 'https://token@api.example.com/v1', 'https://:pw@api.example.com']) {
        expect(messagesOf({ name: 'x', baseUrl })).toEqual([expect.stringContaining('put the API key in the API key field')]);
      }
    });

    it('accepts an ordinary URL, and reports a non-URL once', () => {
      expect(messagesOf({ name: 'x', baseUrl: 'https://api.example.com/v1' })).toEqual([]);
      expect(baseUrlProblem('https://api.example.com')).toBeNull();
      expect(messagesOf({ name: 'x', baseUrl: 'not a url' })).toHaveLength(1);
    });
  });

  describe('API key', () => {
    it.each([
      ['sk-abc\r\nX-Evil: 1', 'line break'],
      ['sk-abc\ndef', 'line break'],
      ['sk-abc\u0000def', 'control character'],
      ['sk-abc\tdef', 'control character'],
      ['sk-abc\u00a0def', 'non-ASCII'],
      ['“sk-abc”', 'non-ASCII'],
      ['sk-ключ', 'non-ASCII'],
      ['Bearer sk-abc', 'space'],
    ])('refuses %j with the reason (%s)', (apiKey, reason) => {
      expect(messagesOf({ name: 'x', baseUrl: 'https://a.example', apiKey })).toEqual([expect.stringContaining(reason)]);
    });

    it('accepts a key with surrounding white space from a paste (the service trims it) and an omitted key', () => {
      expect(messagesOf({ name: 'x', baseUrl: 'https://a.example', apiKey: '  sk-abc_DEF-123.xyz\n' })).toEqual([]);
      expect(messagesOf({ name: 'x', baseUrl: 'https://a.example' })).toEqual([]);
      expect(apiKeyProblem('sk-abc')).toBeNull();
    });
  });
});

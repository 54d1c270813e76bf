import { describe, expect, it } from 'vitest';
import { resolveUrl } from '../../../../main/api/request-url';

describe('request-url', () => {
  describe('resolveUrl()', () => {
    it.each([
      ['http://127.0.0.1:4000', '/v1/models', 'http://127.0.0.1:4000/v1/models'],
      ['http://127.0.0.1:4000/', '/v1/models', 'http://127.0.0.1:4000/v1/models'],
      ['https://api.example.com/v1', '/v1/models', 'https://api.example.com/v1/models'],
      ['https://api.example.com/v1/', '/v2/phone-numbers', 'https://api.example.com/v2/phone-numbers'],
      ['https://proxy.example.com/svc', '/v1/models', 'https://proxy.example.com/svc/v1/models'],
      ['https://proxy.example.com/svc/v1', '/v1/files', 'https://proxy.example.com/svc/v1/files'],
    ])('%s + %s -> %s', (base, path, url) => {
      expect(resolveUrl(base, path).url).toBe(url);
    });

    it('splits origin and path for undici and drops undefined query values', () => {
      expect(resolveUrl('https://api.example.com/v1', '/v1/files', { limit: 10, order: 'desc', after: undefined, q: 'a b&c' })).toEqual({
        origin: 'https://api.example.com',
        path: '/v1/files?limit=10&order=desc&q=a+b%26c',
        url: 'https://api.example.com/v1/files?limit=10&order=desc&q=a+b%26c',
      });
    });
  });
});

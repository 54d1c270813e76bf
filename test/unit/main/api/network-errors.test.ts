import { describe, expect, it } from 'vitest';
import { apiErrorFromThrown, isRetryableThrown, type ThrownContext } from '../../../../main/api/network-errors';

const ctx: ThrownContext = { host: 'api.example.com', phase: 'connect', headersTimeoutMs: 60_000, bodyTimeoutMs: 120_000, connectTimeoutMs: 10_000, requestId: null };
const err = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('network-errors', () => {
  describe('apiErrorFromThrown()', () => {
    it.each([
      [err('ECONNREFUSED'), ctx, 'network', 'Could not connect to api.example.com (connection refused). Is the service running?'],
      [err('ENOTFOUND'), ctx, 'network', 'Could not connect to api.example.com (host name not found). Check the base URL in Connections.'],
      [err('UND_ERR_HEADERS_TIMEOUT'), ctx, 'timeout', 'No answer from api.example.com within 60 s.'],
      [err('UND_ERR_CONNECT_TIMEOUT'), ctx, 'timeout', 'Could not connect to api.example.com within 10 s.'],
      [err('UND_ERR_BODY_TIMEOUT'), { ...ctx, phase: 'body' as const }, 'timeout', 'api.example.com stopped sending: nothing arrived for 120 s. Partial output is kept.'],
      [err('ECONNRESET'), { ...ctx, phase: 'body' as const }, 'network', 'The connection to api.example.com dropped mid-answer (connection reset). Partial output is kept.'],
      [new TypeError('fetch failed', { cause: err('ECONNREFUSED') }), ctx, 'network', 'Could not connect to api.example.com (connection refused). Is the service running?'],
      [err('EWEIRD', 'strange failure'), ctx, 'network', 'Could not connect to api.example.com (strange failure).'],
    ])('explains %s', (e, c, kind, message) => {
      expect(apiErrorFromThrown(e, c)).toMatchObject({ kind, message, status: null });
    });
  });

  describe('isRetryableThrown()', () => {
    it.each([
      ['ECONNREFUSED', true],
      ['ECONNRESET', true],
      ['UND_ERR_SOCKET', true],
      ['UND_ERR_CONNECT_TIMEOUT', true],
      ['UND_ERR_HEADERS_TIMEOUT', false],
      ['ENOTFOUND', false],
      ['UND_ERR_ABORTED', false],
    ])('%s -> %s', (code, expected) => {
      expect(isRetryableThrown(err(code))).toBe(expected);
    });
  });
});

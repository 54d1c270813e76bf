import { describe, expect, it } from 'vitest';
import { headersToRecord, redactHeaders } from '../../../../main/api/http-headers';

describe('http-headers', () => {
  describe('redactHeaders()', () => {
    it('hides the bearer key and every secret-looking header, keeping the rest', () => {
      expect(
        redactHeaders({
          authorization: 'Bearer sk-123',
          'x-api-key': 'sk-123',
          'x-session-token': 't',
          'x-client-secret': 's',
          cookie: 'a=b',
          'content-type': 'application/json',
          'x-svc-conv-id': 'conv-1',
        }),
      ).toEqual({
        authorization: 'Bearer ***',
        'x-api-key': '***',
        'x-session-token': '***',
        'x-client-secret': '***',
        cookie: '***',
        'content-type': 'application/json',
        'x-svc-conv-id': 'conv-1',
      });
    });

    it('keeps an Idempotency-Key (the job id of the app, not a secret) readable', () => {
      expect(redactHeaders({ 'Idempotency-Key': 'job_1', 'x-idempotency-key-secret': 's' })).toEqual({ 'Idempotency-Key': 'job_1', 'x-idempotency-key-secret': '***' });
    });

    it('hides a non-bearer Authorization entirely', () => {
      expect(redactHeaders({ Authorization: 'Basic dXNlcjpwYXNz' })).toEqual({ Authorization: '***' });
    });
  });

  describe('headersToRecord()', () => {
    it('lower-cases names and joins repeated values', () => {
      expect(headersToRecord({ 'X-Request-Id': 'r', 'set-cookie': ['a=1', 'b=2'], gone: undefined })).toEqual({ 'x-request-id': 'r', 'set-cookie': 'a=1, b=2' });
    });
  });
});

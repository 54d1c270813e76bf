import { describe, expect, it } from 'vitest';
import { apiErrorFromResponse, cancelledError, requestIdFromHeaders, toWorkbenchError } from '../../../../main/api/errors';

describe('errors', () => {
  describe('apiErrorFromResponse()', () => {
    it.each([
      [401, { code: 'unauthenticated', error: 'Missing bearer token.' }, 'The service refused the API key (401): Missing bearer token. Check the key in Connections.'],
      // wire-notes §7: a well-formed but unknown key is a 400, and is the key refused all the same.
      [400, { code: 'Client specified an invalid argument', error: 'Incorrect API key provided: sk***yz. You can obtain an API key from the console.' }, 'The service refused the API key (400): Incorrect API key provided: sk***yz. You can obtain an API key from the console. Check the key in Connections.'],
      [400, { code: 'invalid-argument', error: 'temperature must be at most 2' }, 'The service rejected the request (400): temperature must be at most 2'],
      [403, { code: 'permission-denied', error: 'Team out of credits' }, 'The service denied access (403): Team out of credits. Check the key\'s team, permissions and credits.'],
      [429, { error: { message: 'Too many requests', type: 'rate_limit' } }, 'Rate limited or out of credits (429): Too many requests. Wait a moment or check the team\'s spending limit.'],
      [418, { code: 'teapot', error: 'short and stout' }, 'The service answered HTTP 418: short and stout'],
      [500, '', 'The service failed internally (500): no details given. Try again.'],
    ])('explains HTTP %i in words a person can act on', (status, body, message) => {
      expect(apiErrorFromResponse(status, {}, body).message).toBe(message);
    });

    it.each([
      [401, { error: 'Missing bearer token.' }, 'key_refused'],
      [400, { error: 'Incorrect API key provided: sk***yz.' }, 'key_refused'],
      [400, { error: 'temperature must be at most 2' }, undefined],
      [403, { error: 'Team out of credits' }, undefined],
    ] as const)('marks HTTP %i (%o) with reason %s, which the WorkbenchError keeps', (status, body, reason) => {
      const e = apiErrorFromResponse(status, {}, body);
      expect(e.reason).toBe(reason);
      expect(toWorkbenchError(e).reason).toBe(reason);
    });

    it('keeps the status, the service code, the request id and the body', () => {
      const body = { code: 'Some requested entity was not found', error: 'No such model' };
      expect(apiErrorFromResponse(404, { 'x-request-id': 'r-1' }, body)).toEqual({
        kind: 'http',
        status: 404,
        code: 'Some requested entity was not found',
        message: 'Not found (404): No such model. Check the model id or resource id.',
        requestId: 'r-1',
        body,
      });
    });
  });

  describe('requestIdFromHeaders()', () => {
    it.each([
      [{ 'x-request-id': 'a', 'x-trace-id': 'b' }, 'a'],
      [{ 'x-trace-id': 'b' }, 'b'],
      [{ 'request-id': 'c' }, 'c'],
      [{}, null],
    ])('reads %o -> %s', (headers, expected) => {
      expect(requestIdFromHeaders(headers)).toBe(expected);
    });
  });

  describe('toWorkbenchError()', () => {
    it('maps an HTTP error to api_error with status, request id and service code', () => {
      const e = apiErrorFromResponse(400, { 'x-trace-id': 't' }, { code: 'invalid-argument', error: 'bad' });
      expect(toWorkbenchError(e)).toEqual({ code: 'api_error', message: e.message, status: 400, requestId: 't', serviceCode: 'invalid-argument' });
    });

    it.each([
      ['network', 'network'],
      ['timeout', 'timeout'],
      ['protocol', 'protocol'],
      ['stream_incomplete', 'stream_incomplete'],
    ] as const)('maps kind %s to code %s and leaves out absent fields', (kind, code) => {
      expect(toWorkbenchError({ kind, status: null, code: null, message: 'm', requestId: null })).toEqual({ code, message: 'm' });
    });

    it('maps a cancellation to cancelled', () => {
      expect(toWorkbenchError(cancelledError('r'))).toEqual({ code: 'cancelled', message: 'Cancelled.', requestId: 'r' });
    });
  });
});

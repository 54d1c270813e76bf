import { describe, expect, it } from 'vitest';
import { apiKeyEnv, portableHeaders, sdkHeaders } from '../../../../shared/codegen/request-parts';

describe('codegen/request-parts', () => {
  describe('portableHeaders()', () => {
    it('drops secrets, redacted values and headers the HTTP library sets itself', () => {
      const headers = {
        authorization: 'Bearer ***',
        'x-api-key': '***',
        'x-session-token': '***',
        'x-other': '[redacted]',
        'user-agent': 'InferenceWorkbench/0.1',
        'content-length': '12',
        accept: 'text/event-stream',
        'content-type': 'application/json',
        'x-svc-conv-id': 'conv-1',
      };
      expect(portableHeaders(headers)).toEqual([
        ['accept', 'text/event-stream'],
        ['content-type', 'application/json'],
        ['x-svc-conv-id', 'conv-1'],
      ]);
      expect(sdkHeaders(headers)).toEqual([['x-svc-conv-id', 'conv-1']]);
    });
  });

  describe('apiKeyEnv()', () => {
    it('defaults to WORKBENCH_API_KEY and refuses names a shell or program would misread', () => {
      expect(apiKeyEnv({})).toBe('WORKBENCH_API_KEY');
      expect(apiKeyEnv({ apiKeyEnv: 'MY_KEY_2' })).toBe('MY_KEY_2');
      expect(() => apiKeyEnv({ apiKeyEnv: '2KEY' })).toThrow(/invalid environment variable/);
      expect(() => apiKeyEnv({ apiKeyEnv: 'A"]);x' })).toThrow(/invalid environment variable/);
    });
  });
});

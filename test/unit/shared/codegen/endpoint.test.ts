import { describe, expect, it } from 'vitest';
import { endpointKind, sdkFamily, sdkGap } from '../../../../shared/codegen/endpoint';

const base = 'https://api.example.com';

describe('codegen/endpoint', () => {
  describe('endpointKind()', () => {
    it('recognises every text endpoint by path and method (a family with its own exporter is not a text kind)', () => {
      const cases: [string, string, string][] = [
        ['POST', '/v1/chat/completions', 'chat'],
        ['POST', '/v1/responses', 'responses'],
        ['POST', '/v1/responses/compact', 'responses-compact'],
        ['GET', '/v1/responses/resp-1', 'responses-get'],
        ['DELETE', '/v1/responses/resp-1', 'responses-delete'],
        ['POST', '/v1/messages', 'messages'],
        ['POST', '/v1/completions', 'completions'],
        ['POST', '/v1/complete', 'complete'],
        ['GET', '/v1/models', 'other'],
        ['POST', '/v1/images/generations', 'other'],
        ['POST', '/v1/images/edits', 'other'],
        ['POST', '/v1/files', 'other'],
        ['GET', '/v1/images/generations', 'other'],
        ['GET', '/v1/chat/completions', 'other'],
      ];
      expect(cases.map(([m, p]) => endpointKind(m, base + p))).toEqual(cases.map((c) => c[2]));
    });

    it('answers other for a URL that does not parse', () => {
      expect(endpointKind('POST', 'not a url')).toBe('other');
    });

    it('ignores a query string, a fragment and a trailing slash', () => {
      expect(endpointKind('GET', `${base}/v1/responses/resp-9?include=x#top`)).toBe('responses-get');
      expect(endpointKind('POST', `${base}/v1/messages/`)).toBe('messages');
    });
  });

  describe('sdkFamily()', () => {
    it('uses the Anthropic SDK for messages and complete, OpenAI for the rest, none for other', () => {
      expect([sdkFamily('messages'), sdkFamily('complete'), sdkFamily('responses'), sdkFamily('other')]).toEqual([
        'anthropic',
        'anthropic',
        'openai',
        null,
      ]);
    });
  });

  describe('sdkGap()', () => {
    it('explains why no SDK snippet exists for an unknown endpoint or a non-JSON body', () => {
      expect(sdkGap({ method: 'GET', url: `${base}/v1/models`, headers: {}, body: null })).toMatch(/No official SDK method/);
      expect(sdkGap({ method: 'POST', url: `${base}/v1/chat/completions`, headers: {}, body: 'raw' })).toMatch(/JSON object body/);
      expect(sdkGap({ method: 'GET', url: `${base}/v1/responses/r1`, headers: {}, body: null })).toBeNull();
    });
  });
});

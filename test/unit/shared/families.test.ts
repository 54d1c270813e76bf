import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../shared/contract/runs';
import { ENDPOINT_DESCRIPTORS, endpointLabel, endpointOfRequest, NAV_ENTRIES } from '../../../shared/families';

describe('families', () => {
  describe('endpointOfRequest()', () => {
    it('finds every endpoint from its own method and path', () => {
      for (const endpoint of ENDPOINTS) {
        const d = ENDPOINT_DESCRIPTORS[endpoint];
        expect(endpointOfRequest(d.method, d.path.replace('{id}', 'resp_1')), endpoint).toBe(endpoint);
      }
    });

    it('matches under a path prefix, and prefers literal paths over {id}', () => {
      expect(endpointOfRequest('post', '/api/v1/chat/completions')).toBe('chat.completions');
      expect(endpointOfRequest('POST', '/v1/responses/compact')).toBe('responses.compact');
      expect(endpointOfRequest('GET', '/v1/responses/compact')).toBeNull();
      expect(endpointOfRequest('DELETE', '/proxy/v1/responses/resp_9')).toBe('responses.delete');
    });

    it('tells an upload from the other paths under /v1/files', () => {
      expect(endpointOfRequest('POST', '/v1/files')).toBe('files.upload');
      expect(endpointOfRequest('POST', '/v1/files/file_1/public-url')).toBeNull();
    });

    it('answers null for anything else', () => {
      expect(endpointOfRequest('GET', '/v1/chat/completions')).toBeNull();
      expect(endpointOfRequest('POST', '/v1/unknown')).toBeNull();
      expect(endpointOfRequest('POST', '')).toBeNull();
    });
  });

  it('labels every endpoint, and an unknown one by its own name', () => {
    expect(ENDPOINTS.map(endpointLabel)).toEqual([
      'Chat',
      'Responses',
      'Responses: compact',
      'Responses: retrieve',
      'Responses: delete',
      'Messages',
      'Completions (legacy)',
      'Complete (legacy)',
      'Files · upload',
      'Video · generate',
      'Video · edit',
      'Video · extend',
      'Images · generate',
      'Images · edit',
    ]);
    expect(endpointLabel('later.endpoint' as never)).toBe('later.endpoint');
  });

  it('re-runs only prompts, each in its own family', () => {
    const rerun = Object.fromEntries(ENDPOINTS.map((e) => [e, ENDPOINT_DESCRIPTORS[e].rerun]));
    expect(rerun).toEqual({
      'chat.completions': 'chat',
      responses: 'responses',
      'responses.compact': null,
      'responses.retrieve': null,
      'responses.delete': null,
      messages: 'messages',
      completions: 'legacy',
      complete: 'legacy',
      'files.upload': null,
      'videos.generations': null,
      'videos.edits': null,
      'videos.extensions': null,
      'images.generations': null,
      'images.edits': null,
    });
  });

  it('has one nav entry per route', () => {
    const routes = NAV_ENTRIES.map((e) => e.route);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

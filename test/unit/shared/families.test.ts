// The families' tables are read by History, the nav, code export and the router; these tests check
// what the tables must agree with (the service's routes, each other), never the tables' own values.
// The router and Open in playground side: test/renderer/families-routes.test.ts.
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ENDPOINT_DESCRIPTORS, ENDPOINTS, endpointLabel, endpointOfRequest, entryShapeOf, FAMILIES, type Endpoint } from '../../../shared/families';
import { KEY, useHarness } from '../main/sandbox/harness';

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

  it('gives an endpoint this build does not describe the History entry of the family its name starts with', () => {
    expect(entryShapeOf('images.variations')).toBe('media');
    expect(entryShapeOf('videos.remix')).toBe('media');
    expect(entryShapeOf('files.later')).toBe('upload');
    expect(entryShapeOf('later.endpoint')).toBe('text');
    for (const endpoint of ENDPOINTS) expect(entryShapeOf(endpoint)).toBe(ENDPOINT_DESCRIPTORS[endpoint].entry);
  });

  it('derives the endpoint list from the families: each endpoint once, in its family', () => {
    expect(new Set(ENDPOINTS).size).toBe(ENDPOINTS.length);
    expect(Object.keys(ENDPOINT_DESCRIPTORS).sort()).toEqual([...ENDPOINTS].sort());
    for (const f of FAMILIES) for (const e of Object.keys(f.endpoints)) expect(ENDPOINT_DESCRIPTORS[e as Endpoint].family).toBe(f.id);
  });

  it('labels every endpoint with a name of its own (History filters by it), and an unknown one by its name', () => {
    const labels = ENDPOINTS.map(endpointLabel);
    expect(labels.every((l) => l.trim() !== '')).toBe(true);
    expect(new Set(labels).size).toBe(labels.length);
    expect(endpointLabel('later.endpoint' as never)).toBe('later.endpoint');
  });

  it("re-opens a run only in its own family's playground, and only a prompt that can be sent again", () => {
    for (const endpoint of ENDPOINTS) {
      const d = ENDPOINT_DESCRIPTORS[endpoint];
      if (d.rerun === null) continue;
      expect({ endpoint, family: d.family }).toEqual({ endpoint, family: d.rerun });
      expect(d.input, endpoint).not.toBe('none');
      expect(d.method, endpoint).toBe('POST');
    }
  });

  describe('the service (the sandbox, which implements its API) serves every recorded endpoint', () => {
    const h = useHarness();

    it.each([...ENDPOINTS])('%s: its method and path are a route of the service', async (endpoint) => {
      const d = ENDPOINT_DESCRIPTORS[endpoint];
      if (d.transport === 'websocket') {
        // A WebSocket route: the handshake (a GET with Upgrade) is accepted.
        const opened = await new Promise<string>((resolve) => {
          // Each socket's one required query value: the STT socket's language, the realtime socket's model.
          const query = d.path === '/v1/realtime' ? 'model=svc-voice-latest' : 'language=en';
          const ws = new WebSocket(`${h.sandbox.url.replace(/^http/, 'ws')}${d.path}?${query}`, { headers: { authorization: `Bearer ${KEY}` } });
          ws.on('open', () => (ws.close(), resolve('open')));
          ws.on('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
          ws.on('error', (e) => resolve(e.message));
        });
        expect(opened).toBe('open');
        return;
      }
      const res = await fetch(`${h.sandbox.url}${d.path.replace('{id}', 'resp_unknown')}`, {
        method: d.method,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: d.method === 'GET' || d.method === 'DELETE' ? undefined : '{}',
      });
      const text = await res.text();
      // An empty body is refused (400) and an unknown id is not found (404 naming the id), but
      // never "Unknown endpoint" (no such route) or 405 (no such method on it).
      expect(res.status, text).not.toBe(405);
      expect(text).not.toMatch(/Unknown endpoint/);
    });
  });
});

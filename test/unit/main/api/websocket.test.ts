import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiClient } from '../../../../main/api/client';
import { connectWebSocket } from '../../../../main/api/websocket';
import { closedPort } from './local-server';

const KEY = 'sk-voice-key-123';

interface Upgrade {
  url: string;
  headers: IncomingMessage['headers'];
}

/** An echo WebSocket server that refuses (401 JSON) any handshake without `Bearer KEY`; `stall` never answers. */
async function wsServer(mode: 'auth' | 'stall' = 'auth'): Promise<{ baseUrl: string; upgrades: Upgrade[]; close(): Promise<void> }> {
  const upgrades: Upgrade[] = [];
  // Upgraded sockets leave the HTTP server's books: closeAllConnections() does not see them.
  const raw: Duplex[] = [];
  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws: WebSocket) => ws.on('message', (data) => ws.send(`echo:${String(data)}`)));
  const server: Server = createServer();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrades.push({ url: req.url ?? '', headers: req.headers });
    raw.push(socket);
    if (mode === 'stall') return;
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      const body = JSON.stringify({ code: 'The request does not have valid authentication credentials', error: 'Invalid API key' });
      socket.end(`HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nx-trace-id: tr-7\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    upgrades,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      for (const s of raw) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('connectWebSocket', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  async function clientOn(mode: 'auth' | 'stall' = 'auth', key: string | null = KEY, connectTimeoutMs?: number) {
    const server = await wsServer(mode);
    const client = new ApiClient({ baseUrl: `${server.baseUrl}/v1`, apiKey: key, connectTimeoutMs });
    cleanups.push(() => client.dispose(), () => server.close());
    return { server, client };
  }

  it('opens ws:// on the base URL with the key as Bearer, and the socket works', async () => {
    const { server, client } = await clientOn();
    const result = await connectWebSocket(client, '/v1/realtime', { query: { model: 'svc-voice-latest' } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    cleanups.push(() => result.socket.terminate());
    expect(server.upgrades[0].url).toBe('/v1/realtime?model=svc-voice-latest');
    expect(server.upgrades[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(result.captured).toEqual({
      method: 'GET',
      url: `${server.baseUrl.replace('http', 'ws')}/v1/realtime?model=svc-voice-latest`,
      headers: { authorization: 'Bearer ***', 'user-agent': 'InferenceWorkbench/0.1' },
      body: null,
    });
    const reply = new Promise<string>((resolve) => result.socket.once('message', (d) => resolve(String(d))));
    result.socket.send('hello');
    expect(await reply).toBe('echo:hello');
  });

  it('a refused key is an http 401 error with the service message and request id', async () => {
    const { client } = await clientOn('auth', 'sk-wrong-key');
    const result = await connectWebSocket(client, '/v1/realtime');
    expect(result).toMatchObject({ ok: false, error: { kind: 'http', status: 401, requestId: 'tr-7' } });
    if (!result.ok) {
      expect(result.error.message).toMatch(/^The WebSocket to 127\.0\.0\.1:\d+ was refused\. The service refused the API key \(401\): Invalid API key\. Check the key in Connections\.$/);
      expect(JSON.stringify(result.error)).not.toContain('sk-wrong-key');
    }
  });

  it('offers the given subprotocols (a client secret) and lets a header replace the key', async () => {
    const { server, client } = await clientOn();
    const result = await connectWebSocket(client, '/v1/realtime', { protocols: ['svc-client-secret.abc'], headers: { Authorization: 'Bearer other' } });
    expect(result.ok).toBe(false);
    expect(server.upgrades[0].headers['sec-websocket-protocol']).toBe('svc-client-secret.abc');
    expect(server.upgrades[0].headers.authorization).toBe('Bearer other');
  });

  it('a closed port is a network error; a handshake that never answers times out; an abort cancels', async () => {
    const port = await closedPort();
    const refused = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY });
    cleanups.push(() => refused.dispose());
    const r1 = await connectWebSocket(refused, '/v1/tts');
    expect(r1).toMatchObject({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED' } });
    if (!r1.ok) expect(r1.error.message).toBe(`Could not connect to 127.0.0.1:${port} (connection refused). Is the service running?`);

    const { client } = await clientOn('stall', KEY, 300);
    const r2 = await connectWebSocket(client, '/v1/stt');
    expect(r2).toMatchObject({ ok: false, error: { kind: 'timeout' } });

    const controller = new AbortController();
    const pending = connectWebSocket(client, '/v1/stt', { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });
});

/**
 * A tiny WebSocket server for the client's socket tests: node:http + ws on 127.0.0.1, one
 * handler per test, the upgrades recorded. `autoPong: false` makes a peer that never answers
 * pings (a dead peer). Not the sandbox: each test scripts exactly what the service does.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export interface WsUpgrade {
  url: string;
  headers: IncomingMessage['headers'];
}

export interface WsTestServer {
  baseUrl: string;
  upgrades: WsUpgrade[];
  close(): Promise<void>;
}

export async function startWsServer(onConnection: (ws: WebSocket, req: IncomingMessage) => void, opts: { autoPong?: boolean; handleProtocols?: (protocols: Set<string>) => string | false } = {}): Promise<WsTestServer> {
  const upgrades: WsUpgrade[] = [];
  const raw: Duplex[] = [];
  const wss = new WebSocketServer({ noServer: true, autoPong: opts.autoPong ?? true, handleProtocols: opts.handleProtocols });
  wss.on('connection', onConnection);
  const server: Server = createServer();
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrades.push({ url: req.url ?? '', headers: req.headers });
    raw.push(socket);
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

/** Resolves when `check()` is true, polling on the event loop (no wall-clock assertion). */
export async function until(check: () => boolean, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

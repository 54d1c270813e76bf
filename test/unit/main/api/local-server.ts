/**
 * A tiny HTTP server for the client's tests: each test scripts the answers, and the server
 * records what arrived (method, path, headers, body) so tests can check what was sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body's exact bytes (uploads are binary). */
  raw: Buffer;
}

/** Answers request number `n` (0-based). May write slowly, or never. */
export type Responder = (req: ReceivedRequest, res: ServerResponse, n: number) => void | Promise<void>;

export interface LocalServer {
  baseUrl: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startServer(respond: Responder): Promise<LocalServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      const r: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw.toString('utf8'), raw };
      received.push(r);
      void respond(r, res, received.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an event-stream answer. */
export function openStream(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
  res.flushHeaders();
}

/** A port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

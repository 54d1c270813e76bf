/**
 * Browser mode's frame channel: the media process's own WebSocket server on 127.0.0.1, so a
 * page's frames never pass through main's event loop. The same guards as main's server
 * (main/host/browser-server.ts): the Host header must name this loopback port (DNS rebinding),
 * the Origin must be main's page (allowOrigins), and a fresh 256-bit token (its own, not the
 * page's main token) must be offered as the `token.<t>` subprotocol. Messages are binary media
 * frames (shared/media-frames/frame.ts); anything else is ignored.
 */
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { FRAME_HEADER_BYTES, MAX_FRAME_PAYLOAD_BYTES } from '../../shared/media-frames/frame';
import { newAccessToken, tokenFromProtocols, tokensMatch, WS_PROTOCOL } from '../host/token';
import type { ChannelHandle, FrameSink } from './frame-router';

export const FRAME_CHANNEL_PATH = '/media';
const LOOPBACK = '127.0.0.1';
/** Channels (tabs) open at once; a tab holds one. */
const MAX_CHANNELS = 64;

export interface FrameServerOptions {
  log: (line: string) => void;
  onChannel(id: string, sink: FrameSink): ChannelHandle;
  port?: number;
  token?: string;
}

export interface FrameServer {
  readonly port: number;
  readonly token: string;
  /** The Origins (main's page) allowed to connect; replaces the previous list. */
  allowOrigins(origins: readonly string[]): void;
  close(): Promise<void>;
}

export async function startFrameServer(options: FrameServerOptions): Promise<FrameServer> {
  const token = options.token ?? newAccessToken();
  let origins = new Set<string>();
  let hosts = new Set<string>();
  let nextChannel = 1;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: FRAME_HEADER_BYTES + MAX_FRAME_PAYLOAD_BYTES,
    // Frames are small and latency-bound: compressing them costs time and buys nothing.
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });
  const refuse = (socket: Duplex, status: number, body: string) =>
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  const server = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('The media channel takes WebSocket connections only.');
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (err) => options.log(`[media-ws] upgrade socket: ${err.message}`));
    if (!hosts.has((req.headers.host ?? '').toLowerCase())) return refuse(socket, 403, 'Forbidden: unexpected Host header.');
    if (new URL(req.url ?? '/', `http://${LOOPBACK}`).pathname !== FRAME_CHANNEL_PATH) return refuse(socket, 404, 'Not found.');
    if (!origins.has(req.headers.origin ?? '')) return refuse(socket, 403, 'Forbidden: unexpected Origin.');
    if (!tokensMatch(token, tokenFromProtocols(req.headers['sec-websocket-protocol']))) return refuse(socket, 401, 'Unauthorized: the media channel token is missing or wrong.');
    if (wss.clients.size >= MAX_CHANNELS) return refuse(socket, 429, `Too many media channels open (${MAX_CHANNELS}): close some workbench tabs.`);
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => attach(ws));
  });

  function attach(ws: WebSocket): void {
    const id = `ws-${nextChannel++}`;
    const handle = options.onChannel(id, {
      write: (bytes) => ws.send(bytes),
      buffered: () => ws.bufferedAmount,
      close: () => ws.close(1001, 'The media process is shutting down.'),
    });
    ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const buf = Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data;
      handle.receive(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    });
    ws.on('close', () => handle.close());
    ws.on('error', (err) => options.log(`[media-ws] ${id}: ${err.message}`));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  hosts = new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  server.on('error', (err) => options.log(`[media-ws] ${err.message}`));

  return {
    port,
    token,
    allowOrigins(list) {
      origins = new Set(list);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

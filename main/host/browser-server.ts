/**
 * Browser mode's transport: a loopback-only HTTP server that serves the built renderer under a
 * strict CSP, and a WebSocket at /ws that carries the contract. Guards, in order: the Host header
 * must name our loopback address (DNS rebinding), the WebSocket's Origin must be ours (other
 * sites), and a 256-bit token must be offered as a subprotocol (other local users and programs).
 * A file's bytes from the page take the contract like everything else (`userFiles.upload`).
 * Blobs are served at /media/<hash> with a per-blob media token instead (media-route.ts).
 * Connections that have not proved a token are held apart from the page's (socket-gate.ts), so
 * programs without it cannot crowd the page out.
 */
import { createReadStream } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_MESSAGE_BYTES } from '../../shared/contract/protocol';
import { applyConnectionLimits, DEFAULT_CONNECTION_LIMITS, PerClientCounter, type ConnectionLimits } from './connection-limits';
import { securityHeaders } from './csp';
import type { SocketGate } from './socket-gate';
import { serveDownload, type DownloadSource } from './download-route';
import type { HostPort } from './host';
import type { MediaLookup } from '../services/media-service';
import { MEDIA_PATH, serveMedia } from './media-route';
import type { MediaTokens } from './media-token';
import { precompressedVariant, resolveStaticFile } from './static-files';
import { newAccessToken, tokenFromAuthorization, tokenFromProtocols, tokensMatch, WS_PROTOCOL } from './token';
import { attachSocket } from './ws-session';
import { serveUploadLane, UPLOAD_LANE_PATH } from './upload-route';
import type { UploadLanes } from '../services/upload-lane';

export interface BrowserServerOptions {
  host: HostPort;
  /** The built renderer (out/renderer). */
  staticDir: string;
  /** 0 or omitted: any free port. */
  port?: number;
  /** Omitted: a fresh random token. */
  token?: string;
  log?: (line: string) => void;
  /** Largest accepted WebSocket message; defaults to MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** One-time download links main hands the page (GET /downloads/<token>). */
  downloads?: DownloadSource;
  /** Blobs served at /media/<hash>?t=<token>; without it the route answers 404. */
  media?: { lookup: MediaLookup; tokens: MediaTokens };
  /** Sockets, tabs and header time one client may use; defaults to DEFAULT_CONNECTION_LIMITS. */
  limits?: Partial<ConnectionLimits>;
  /** More origins the page may connect to (the media process's frame WebSocket, main/media). */
  connectSources?: readonly string[];
  /** Upload chunks posted by the page (POST /upload-lane/<ticket>/<index>); without it the route answers 404. */
  uploadLanes?: UploadLanes;
}

export interface BrowserServer {
  /** `http://127.0.0.1:<port>/#token=<token>`: what the user opens. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const log = options.log ?? (() => {});
  const token = options.token ?? newAccessToken();
  let port = 0;
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();
  let headers: Record<string, string> = {};
  let nextSession = 1;
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.limits };
  const tabs = new PerClientCounter(limits.webSocketsPerClient);
  // Set once the server exists (below); requests can only arrive after that.
  let gate: SocketGate | null = null;

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    // ws's server default, said aloud: uploads' binary frames (already compressed media, mostly)
    // would cost a deflate pass each for nothing, and compressed frames can inflate past maxPayload.
    perMessageDeflate: false,
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false),
  });

  const hostAllowed = (req: IncomingMessage) => allowedHosts.has((req.headers.host ?? '').toLowerCase());

  function reply(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
    res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...extra });
    res.end(body);
  }

  /** Whether `req` proves the page token (Bearer) or, on the media route, the blob's media token. */
  function provesToken(req: IncomingMessage, url: URL): boolean {
    if (tokensMatch(token, tokenFromAuthorization(req.headers.authorization))) return true;
    return options.media !== undefined && url.pathname.startsWith(MEDIA_PATH) && options.media.tokens.verify(url.pathname.slice(MEDIA_PATH.length), url.searchParams.get('t'));
  }

  function ticketFor<T>(req: IncomingMessage, ticket: T | null): T | null {
    if (ticket && gate) gate.authenticate(req.socket);
    return ticket;
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req)) return reply(res, 403, 'Forbidden: unexpected Host header.');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    // The page's own connections are kept apart from those of programs without the token.
    if (provesToken(req, url) && gate && !gate.authenticate(req.socket)) {
      log(`[http] refused a request from ${req.socket.remoteAddress ?? 'unknown'}: it holds ${limits.socketsPerClient} connections with the token`);
      return reply(res, 429, `Too many open connections with the access token (${limits.socketsPerClient}): close some workbench tabs and reload.`, { Connection: 'close' });
    }
    if (url.pathname === '/ws') return reply(res, 426, 'This address takes WebSocket connections only.');
    if (url.pathname === '/health') {
      if (!tokensMatch(token, tokenFromAuthorization(req.headers.authorization))) return reply(res, 401, 'Unauthorized.');
      return reply(res, 200, JSON.stringify({ ok: true }), { 'Content-Type': 'application/json' });
    }
    if (url.pathname.startsWith(UPLOAD_LANE_PATH)) {
      if (!options.uploadLanes) return reply(res, 404, 'Not found.');
      if (!tokensMatch(token, tokenFromAuthorization(req.headers.authorization))) {
        res.writeHead(401, { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Connection: 'close' });
        return void res.end(JSON.stringify({ error: { code: 'invalid_input', message: 'Unauthorized: the access token is missing or wrong.' } }));
      }
      return serveUploadLane(req, res, url.pathname, { lanes: options.uploadLanes, originAllowed: allowedOrigins.has(req.headers.origin ?? ''), headers });
    }
    if (options.downloads) {
      const downloads = options.downloads;
      // A valid one-time link proves the page sent it: its socket is the page's for the download.
      const source = { take: (t: string) => ticketFor(req, downloads.take(t)), discard: (path: string) => downloads.discard(path) };
      if (serveDownload(req, res, url.pathname, source, headers, log)) return;
    }
    if (url.pathname.startsWith(MEDIA_PATH)) {
      if (!options.media) return reply(res, 404, 'Not found.');
      return serveMedia(req, res, url, options.media, reply, log);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD' });
    const found = await resolveStaticFile(options.staticDir, url.pathname);
    // Browsers ask for /favicon.ico on their own; "nothing" keeps a 404 out of the console.
    if (!found.ok && url.pathname === '/favicon.ico') return reply(res, 204, '');
    if (!found.ok) return reply(res, found.status, STATUS_CODES[found.status] ?? 'Error');
    // The build wrote .br/.gz copies: the page's 1 MB of script goes out as about a third.
    const variant = await precompressedVariant(found.path, req.headers['accept-encoding']);
    res.writeHead(200, {
      ...headers,
      'Content-Type': found.contentType,
      'Cache-Control': found.isIndex ? 'no-store' : 'no-cache',
      Vary: 'Accept-Encoding',
      ...(variant ? { 'Content-Encoding': variant.encoding, 'Content-Length': String(variant.size) } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    const source = variant?.path ?? found.path;
    createReadStream(source)
      .on('error', (err) => {
        log(`[http] reading ${source}: ${err.message}`);
        res.destroy();
      })
      .pipe(res);
  }

  function refuseUpgrade(socket: Duplex, status: number, body: string): void {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', (err) => log(`[ws] upgrade socket: ${err.message}`));
    if (!hostAllowed(req)) return refuseUpgrade(socket, 403, 'Forbidden: unexpected Host header.');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404, 'Not found.');
    if (!allowedOrigins.has(req.headers.origin ?? '')) return refuseUpgrade(socket, 403, 'Forbidden: unexpected Origin.');
    const offered = tokenFromProtocols(req.headers['sec-websocket-protocol']);
    if (!tokensMatch(token, offered)) return refuseUpgrade(socket, 401, 'Unauthorized: the access token is missing or wrong.');
    const address = req.socket.remoteAddress ?? 'unknown';
    if (gate && !gate.authenticate(req.socket)) {
      log(`[ws] refused a session from ${address}: it holds ${limits.socketsPerClient} connections with the token`);
      return refuseUpgrade(socket, 429, `Too many open connections with the access token (${limits.socketsPerClient}): close some workbench tabs and reload.`);
    }
    if (!tabs.tryOpen(address)) {
      log(`[ws] refused a session from ${address}: ${limits.webSocketsPerClient} are open`);
      return refuseUpgrade(socket, 429, `Too many open workbench tabs (${limits.webSocketsPerClient}): close some and reload.`);
    }
    // The raw socket closes whether the handshake completes or ws refuses it, so the count never leaks.
    socket.once('close', () => tabs.release(address));
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const id = `tab-${nextSession++}`;
      attachSocket(options.host, ws, { id, log });
    });
  }

  // Header deadlines are checked on this timer; Node's default (30 s) would let a slow-header
  // socket live well past headersTimeout.
  // No whole-request deadline (Node's default is 300 s): uploads time out on stalls instead.
  const server = createServer({ connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs), requestTimeout: 0 }, (req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      log(`[http] ${(req.url ?? '').split('?')[0]}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) reply(res, 500, 'Internal error.');
      else res.destroy();
    });
  });
  server.on('upgrade', onUpgrade);
  gate = applyConnectionLimits(server, limits, log);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  allowedHosts = new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://${LOOPBACK}:${port}`, `http://localhost:${port}`]);
  headers = securityHeaders([`ws://${LOOPBACK}:${port}`, `ws://localhost:${port}`, ...(options.connectSources ?? [])]);
  server.on('error', (err) => log(`[http] ${err.message}`));

  let closing: Promise<void> | null = null;
  return {
    url: `http://${LOOPBACK}:${port}/#token=${token}`,
    port,
    token,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const client of wss.clients) client.close(1001, 'The workbench is shutting down.');
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
        // Sockets that never finish their close handshake must not hold the process open.
        for (const client of wss.clients) client.terminate();
      });
      return closing;
    },
  };
}

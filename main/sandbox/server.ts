/**
 * The sandbox's HTTP server: the Host check (host.ts), request ids, routing (404 unknown path,
 * 405 wrong method), auth, body reading, status and delay faults, then the route. Any error
 * becomes the service-native error body; a thrown non-SandboxError is a 500 and is logged.
 * close() ends open streams.
 *
 * Bodies time out on stalls, not on total time: Node's default `requestTimeout` (300 s for the
 * whole request) cut off a 1 GiB upload over a 2 MB/s link, so it is off, and a request whose body
 * sends no byte for `bodyStallMs` (default 60 s) is answered 408 and its connection closed.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { KeyRing } from './auth';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody, readRawBody } from './body';
import type { Clock } from './clock';
import { SandboxError, sendError } from './errors';
import { FAULT_HEADER, faultError, parseFault, type Fault, type FaultBook } from './faults';
import { checkHost } from './host';
import { compileRoute, matchPath, type Route } from './route';
import { createSocketRouter, type SocketRoute } from './socket-route';

/** How long a request body may send nothing before it is given up (408). */
export const DEFAULT_BODY_STALL_MS = 60_000;

export interface HttpServerOptions {
  routes: Route[];
  /** WebSocket endpoints (socket-route.ts), reached through the server's `upgrade` event. */
  socketRoutes?: SocketRoute[];
  keyRing: KeyRing;
  faults: FaultBook;
  clock: Clock;
  log: (line: string) => void;
  maxBodyBytes?: number;
  /** A body that sends no byte for this long is answered 408 and closed; default 60 s. */
  bodyStallMs?: number;
}

export interface SandboxHttpServer {
  readonly server: Server;
  /** Stops accepting, aborts open requests and streams, destroys their sockets. */
  close(): Promise<void>;
}

/** Builds (but does not listen on) the server. */
export function createSandboxHttpServer(opts: HttpServerOptions): SandboxHttpServer {
  const routes = opts.routes.map(compileRoute);
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const open = new Set<AbortController>();
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    checkHost(req);
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = (req.method ?? 'GET').toUpperCase();
    const matches = matchPath(routes, url.pathname);
    if (matches.length === 0) {
      throw new SandboxError(404, `Unknown endpoint: ${method} ${url.pathname}. The sandbox serves the paths of the service's API under /v1.`);
    }
    const match = matches.find((m) => m.route.method === method);
    if (!match) {
      const allow = [...new Set(matches.map((m) => m.route.method))].join(', ');
      throw new SandboxError(405, `Method ${method} is not allowed on ${url.pathname}; use ${allow}.`, { allow });
    }
    const team = match.route.public ? '' : opts.keyRing.authenticate(req.headers.authorization);
    const mode = match.route.body ?? (method === 'GET' || method === 'DELETE' ? 'none' : 'json');
    let body: unknown;
    let rawText = '';
    if (mode === 'json') ({ json: body, raw: rawText } = await readJsonBody(req, maxBody));
    else if (mode === 'raw') body = await readRawBody(req, maxBody);
    else if (mode === 'none') req.resume();

    const streaming = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
    const fault = await applyFaults(req, res, signal, `${method} ${url.pathname} ${rawText}`, team, streaming);
    if (fault === 'dropped') return;
    const requestId = res.getHeader('x-request-id') as string;
    await match.route.handle({ req, res, requestId, team, params: match.params, query: url.searchParams, body, fault, signal });
  }

  /** Delay and status faults happen here; stream faults travel on to the route. */
  async function applyFaults(
    req: IncomingMessage,
    res: ServerResponse,
    signal: AbortSignal,
    key: string,
    team: string,
    streaming: boolean,
  ): Promise<Fault | null | 'dropped'> {
    const header = req.headers[FAULT_HEADER];
    if (typeof header !== 'string' || header.trim() === '') return null;
    const fault = parseFault(header);
    if (!opts.faults.applies(fault, `${header}\n${key}`)) return null;
    opts.log(`fault ${header} on ${key.slice(0, 80)}`);
    if (fault.delay) await opts.clock.sleep(fault.delay, signal);
    if (fault.status !== undefined) throw faultError({ ...fault, status: fault.status }, team);
    if (fault.dropAfter !== undefined && !streaming) {
      res.destroy();
      return 'dropped';
    }
    return fault;
  }

  const stallMs = opts.bodyStallMs ?? DEFAULT_BODY_STALL_MS;

  /**
   * Watches the body for stalls: the socket's idle timer runs while the body is incoming (any byte
   * restarts it) and is cleared once the body has ended, so a slow answer (a stream, a delay fault,
   * a long poll) is never cut. A stalled body gets a 408, then the request is destroyed with that
   * error, so the route reading it (an upload) stops and cleans up.
   */
  function watchBody(req: IncomingMessage, res: ServerResponse, requestId: string): void {
    if (stallMs <= 0) return;
    req.setTimeout(stallMs, () => {
      if (req.complete) return;
      const err = new SandboxError(408, `The request body sent nothing for ${stallMs / 1000} s, so the sandbox gave up on it. Send the body without long pauses.`);
      opts.log(`${requestId} 408: the body stalled for ${stallMs} ms`);
      const destroy = () => req.destroy(err);
      if (res.headersSent) {
        destroy();
        return;
      }
      res.setHeader('connection', 'close');
      sendError(res, err);
      // The client may not be reading: do not wait for the answer to drain for long.
      const timer = setTimeout(destroy, 1000);
      res.once('finish', () => {
        clearTimeout(timer);
        destroy();
      });
    });
    req.once('end', () => req.socket?.setTimeout(0));
    // A body that arrived whole but is not read yet (a delay fault first) is no stall: without a
    // listener here, Node would destroy the socket when the idle timer fires.
    res.on('timeout', () => undefined);
  }

  // requestTimeout 0: no limit on the whole request (watchBody bounds stalls instead).
  const server = createServer({ requestTimeout: 0 }, (req, res) => {
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    res.setHeader('x-trace-id', requestId);
    watchBody(req, res, requestId);
    const controller = new AbortController();
    open.add(controller);
    // 'close' on the response fires when it finished or when the client went away mid-way.
    res.on('close', () => {
      controller.abort();
      open.delete(controller);
    });
    handle(req, res, controller.signal).catch((err: unknown) => {
      if (err instanceof SandboxError) {
        if (err.status >= 500) opts.log(`${requestId} ${err.status} ${err.message}`);
        sendError(res, err);
        return;
      }
      // One log call per line: the log escapes line breaks inside a line (see log-line.ts).
      for (const line of `${requestId} internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) opts.log(line);
      sendError(res, new SandboxError(500, `The sandbox hit an internal error (request ${requestId}). See the sandbox log.`));
    });
  });
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s), so a client always closes
  // one before the server does: clients take their idle limit from the `Keep-Alive: timeout=` hint
  // minus a margin, and a client whose loop stalled past the server's limit would otherwise reuse
  // a socket the server is closing at that moment (ECONNRESET on a POST, which is not retried;
  // reproduced with Node's fetch and a 6 s stall against the 5 s default). As load balancers do.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const socketRouter = createSocketRouter(opts.socketRoutes ?? [], opts.keyRing, opts.log);
  server.on('upgrade', (req, socket, head) => socketRouter.handleUpgrade(req, socket, head));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return {
    server,
    close() {
      return new Promise<void>((resolve) => {
        for (const c of open) c.abort();
        socketRouter.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/**
 * WebSocket routes of the sandbox (`/v1/tts`, `/v1/stt`, `/v1/realtime`): the server's `upgrade`
 * event is routed here. Everything that can refuse a connection happens BEFORE the 101, as a plain
 * HTTP answer with the service-native JSON error body (errors.ts), because a client can read that
 * body and show why (a 101 followed by a close frame only carries 123 bytes of reason):
 *   Host check (403) -> path (404) -> auth (401/400, or the route's own) -> the route's `check`
 *   (query parameters, 400/404) -> 101 with the accepted subprotocol echoed -> `open`.
 *
 * Auth is the HTTP routes' (Authorization: Bearer <API key> -> team) unless the route gives its
 * own `authenticate`: realtime also accepts an ephemeral client secret offered as the subprotocol
 * `svc-client-secret.<secret>`; it returns `protocol` so the 101 echoes it (browsers abort a
 * handshake whose offered subprotocol is not echoed, wire-notes §2.1).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { KeyRing } from './auth';
import { errorBody, SandboxError } from './errors';
import { checkHost } from './host';
import { compileRoute, matchPath, type CompiledRoute } from './route';

/** The subprotocol prefix of an ephemeral client secret (spec Authentication 3). */
export const CLIENT_SECRET_PROTOCOL_PREFIX = 'svc-client-secret.';

/** Who is connecting, as an `authenticate` hook decides. */
export interface SocketIdentity {
  team: string;
  /** The subprotocol to accept (echoed in the 101); none when the client offered none that counts. */
  protocol?: string;
}

/** What an `authenticate` hook gets. */
export interface SocketAuthInput {
  readonly req: IncomingMessage;
  readonly authorization: string | undefined;
  /** The offered subprotocols (`Sec-WebSocket-Protocol`, split on commas, trimmed), in order. */
  readonly protocols: readonly string[];
  readonly keyRing: KeyRing;
}

/** The upgrade request as a route sees it, after the Host check, routing and auth. */
export interface UpgradeContext {
  readonly req: IncomingMessage;
  /** Also sent as `x-request-id` / `x-trace-id` on a refusal. */
  readonly requestId: string;
  readonly team: string;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** The accepted subprotocol, if any. */
  readonly protocol: string | undefined;
}

/** An open connection as a route sees it. */
export interface SocketContext extends UpgradeContext {
  readonly ws: WebSocket;
  /** Aborts when the connection closes or the sandbox closes. */
  readonly signal: AbortSignal;
}

/** A route of any `check` result (methods are bivariant, so a `SocketRoute<T>` fits `SocketRoute`). */
export interface SocketRoute<P = unknown> {
  /** Path pattern, as for HTTP routes (`/v1/custom/:id`). */
  path: string;
  /** Largest message accepted (ws closes with 1009 above it); default 1 MiB. */
  maxPayload?: number;
  /** Who may connect; default the API key from the Authorization header, as on HTTP routes. */
  authenticate?(input: SocketAuthInput): SocketIdentity | Promise<SocketIdentity>;
  /**
   * Checks the request (query parameters) before the upgrade; a thrown SandboxError refuses with
   * its status and the JSON error body. What it returns is handed to `open`.
   */
  check?(ctx: UpgradeContext): P | Promise<P>;
  /** The connection is open: the route owns it from here. */
  open(ctx: SocketContext, checked: P): void;
}

/** The subprotocols a client offered. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  if (typeof raw !== 'string') return [];
  return raw.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
}

/** The client secret offered as `svc-client-secret.<secret>`, with the exact protocol to echo; null when none. */
export function clientSecretFromProtocols(protocols: readonly string[]): { secret: string; protocol: string } | null {
  const protocol = protocols.find((p) => p.startsWith(CLIENT_SECRET_PROTOCOL_PREFIX) && p.length > CLIENT_SECRET_PROTOCOL_PREFIX.length);
  return protocol ? { secret: protocol.slice(CLIENT_SECRET_PROTOCOL_PREFIX.length), protocol } : null;
}

/** The default authentication: the HTTP routes' API key. */
export function apiKeyAuth(input: SocketAuthInput): SocketIdentity {
  return { team: input.keyRing.authenticate(input.authorization) };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/** Writes a plain HTTP refusal with the native JSON body on the raw socket, then closes it. */
function refuseUpgrade(socket: Duplex, requestId: string, err: SandboxError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorBody(err.status, err.message));
  const headers = {
    ...err.headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'x-trace-id': requestId,
    connection: 'close',
  };
  const head = `HTTP/1.1 ${err.status} ${STATUS_TEXT[err.status] ?? 'Error'}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  socket.end(head + body);
  // A client that never reads must not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

export interface SocketRouter {
  /** For `server.on('upgrade', …)`. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every open connection (1001) and refuses new ones. */
  close(): void;
}

type Compiled = CompiledRoute & { socket: SocketRoute<unknown> };

/** Routes upgrades to `routes`; `log` gets internal errors. */
export function createSocketRouter(routes: readonly SocketRoute[], keyRing: KeyRing, log: (line: string) => void): SocketRouter {
  const compiled: Compiled[] = routes.map((r) => ({ ...compileRoute({ method: 'GET', path: r.path, handle: () => undefined }), socket: r }));
  const open = new Set<{ ws: WebSocket; controller: AbortController }>();
  const servers = new Map<SocketRoute<unknown>, WebSocketServer>();
  let closed = false;

  function serverFor(route: SocketRoute<unknown>): WebSocketServer {
    let wss = servers.get(route);
    if (!wss) {
      // The accepted protocol was decided by auth; it rides on the request to handleProtocols.
      wss = new WebSocketServer({
        noServer: true,
        clientTracking: false,
        maxPayload: route.maxPayload ?? 1024 * 1024,
        handleProtocols: (_offered, req) => accepted.get(req) ?? false,
      });
      servers.set(route, wss);
    }
    return wss;
  }
  const accepted = new WeakMap<IncomingMessage, string>();

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, requestId: string): Promise<void> {
    if (closed) throw new SandboxError(503, 'The sandbox is closing.');
    checkHost(req);
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const match = matchPath(compiled, url.pathname)[0] as { route: Compiled; params: Record<string, string> } | undefined;
    if (!match) {
      throw new SandboxError(404, `No WebSocket endpoint at ${url.pathname}. The sandbox's WebSocket endpoints: ${compiled.map((r) => r.path).join(', ')}.`);
    }
    const route = match.route.socket;
    const identity = await (route.authenticate ?? apiKeyAuth)({ req, authorization: req.headers.authorization, protocols: offeredProtocols(req), keyRing });
    const ctx: UpgradeContext = { req, requestId, team: identity.team, params: match.params, query: url.searchParams, protocol: identity.protocol };
    const checked = route.check ? await route.check(ctx) : undefined;
    if (socket.destroyed || closed) return;
    if (identity.protocol) accepted.set(req, identity.protocol);
    serverFor(route).handleUpgrade(req, socket, head, (ws) => {
      const controller = new AbortController();
      const entry = { ws, controller };
      open.add(entry);
      ws.once('close', () => {
        open.delete(entry);
        controller.abort();
      });
      try {
        route.open({ ...ctx, ws, signal: controller.signal }, checked);
      } catch (err) {
        for (const line of `${requestId} WebSocket route ${route.path} failed to open: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) log(line);
        ws.close(1011, 'The sandbox hit an internal error; see its log.');
      }
    });
  }

  return {
    handleUpgrade(req, socket, head) {
      const requestId = randomUUID();
      socket.on('error', () => undefined);
      upgrade(req, socket, head, requestId).catch((err: unknown) => {
        if (err instanceof SandboxError) {
          refuseUpgrade(socket, requestId, err);
          return;
        }
        for (const line of `${requestId} WebSocket upgrade internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`.split('\n')) log(line);
        refuseUpgrade(socket, requestId, new SandboxError(500, `The sandbox hit an internal error (request ${requestId}). See the sandbox log.`));
      });
    },
    close() {
      closed = true;
      for (const { ws, controller } of open) {
        controller.abort();
        ws.close(1001, 'The sandbox is closing.');
        // A peer that does not answer the close handshake is cut.
        setTimeout(() => ws.terminate(), 500).unref();
      }
      open.clear();
      for (const wss of servers.values()) wss.close();
    },
  };
}

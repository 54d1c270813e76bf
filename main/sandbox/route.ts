/**
 * What a route module gives the server and what it gets back per request. Later endpoint families
 * (responses, messages, files, images, videos, voice) are new modules returning `Route[]`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Fault } from './faults';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One request as a route sees it, after routing, auth, body parsing and status faults. */
export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Also sent as the `x-request-id` and `x-trace-id` headers. */
  readonly requestId: string;
  /** The team of the API key ('' on `public` routes). */
  readonly team: string;
  /** `:name` segments of the route's path. */
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  /** Parsed JSON for `body: 'json'` routes; the raw bytes for `body: 'raw'`; undefined otherwise (`'stream'` routes read `req`). */
  readonly body: unknown;
  /** Stream-level faults (drop-after, malformed-after) requested for this request, if any. */
  readonly fault: Fault | null;
  /** Aborts when the client disconnects or the sandbox closes. */
  readonly signal: AbortSignal;
}

export interface Route {
  method: Method;
  /** Path pattern, e.g. `/v1/models/:id`. */
  path: string;
  /**
   * How the body is read: JSON (POST default), raw bytes, not at all (GET default), or left to the
   * route (`'stream'`: large uploads read from `req` as they arrive).
   */
  body?: 'json' | 'raw' | 'none' | 'stream';
  /** No API key needed (the public URLs of files, which a browser opens without headers). */
  public?: boolean;
  handle(ctx: RequestContext): Promise<void> | void;
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Compiled route pattern: a regexp and the names of its parameters. */
export interface CompiledRoute extends Route {
  regexp: RegExp;
  names: string[];
}

/** Turns `/v1/models/:id` into a matcher; parameters match one path segment. */
export function compileRoute(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':')) return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(seg.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { ...route, regexp: new RegExp(`^${source}/?$`), names };
}

/** The routes whose path matches, with their parameters (any method). */
export function matchPath(routes: readonly CompiledRoute[], path: string): Array<{ route: CompiledRoute; params: Record<string, string> }> {
  const out: Array<{ route: CompiledRoute; params: Record<string, string> }> = [];
  for (const route of routes) {
    const m = route.regexp.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => {
      params[name] = decodeURIComponent(m[i + 1]);
    });
    out.push({ route, params });
  }
  return out;
}

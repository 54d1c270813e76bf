/**
 * Which addresses are the sandbox's own. It listens on loopback only, so a request whose `Host`
 * names anything else was sent to another name that resolved here: a web page using DNS
 * rebinding to reach it through the user's browser (`evil.example` -> 127.0.0.1). Such requests
 * are refused before routing. URLs the sandbox hands out (public file URLs, media URLs) are built
 * from the address the request arrived on, never from the client's `Host`.
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from './errors';

/** `localhost`, `127.0.0.0/8` and `::1` (bracketed or not): the names the sandbox can be reached by. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '[::1]') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((part) => Number(part) <= 255);
}

/** `host[:port]` of a Host header (IPv6 in brackets), or null when it is not that shape. */
function splitHost(value: string): { hostname: string; port: number | null } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return null;
  return { hostname: m[1], port: m[2] === undefined ? null : Number(m[2]) };
}

/**
 * Refuses (403) a request whose Host is not a loopback name. Any port passes: a loopback proxy or a
 * port forward in front of the sandbox sends its own port, and a rebinding page can only send its
 * own domain's name, which is refused. A request without a Host (HTTP/1.0) passes: browsers, the
 * DNS-rebinding vector, always send one.
 */
export function checkHost(req: IncomingMessage): void {
  const value = req.headers.host;
  if (value === undefined) return;
  const parsed = splitHost(value);
  if (parsed && isLoopbackHostname(parsed.hostname)) return;
  const port = req.socket.localPort;
  throw new SandboxError(
    403,
    `The sandbox only answers requests addressed to it by a loopback name (Host: 127.0.0.1:${port}, localhost:${port} or [::1]:${port}); ` +
      `got Host: ${JSON.stringify(value.slice(0, 100))}. Use the URL the sandbox printed.`,
  );
}

/** `http://<the address this request arrived on>` (`http://127.0.0.1:4010`, `http://[::1]:4010`). */
export function ownOrigin(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

/**
 * A raw `ws` client for the sandbox's /v1/realtime in tests: records every server event in order;
 * `next(type)` waits for the next event of a type after those already taken, `until(type, n)` for
 * the n-th; `refusal()` reads an upgrade's HTTP refusal (status and JSON body).
 */
import { WebSocket } from 'ws';
import type { SandboxServer } from '../../../../main/sandbox/index';

export type Event = Record<string, any> & { type: string };

export interface RtClient {
  ws: WebSocket;
  events: Event[];
  /** The subprotocol the 101 accepted ('' when none). */
  protocol: string;
  send(event: Record<string, unknown>): void;
  /** The n-th (1-based) event of `type`. */
  until(type: string, n?: number): Promise<Event>;
  /** Events from index `from` on, types only. */
  types(from?: number): string[];
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export function wsUrl(sb: SandboxServer, query = ''): string {
  return `${sb.url.replace('http', 'ws')}/v1/realtime${query ? `?${query}` : ''}`;
}

export async function connect(sb: SandboxServer, opts: { query?: string; headers?: Record<string, string>; protocols?: string[] } = {}): Promise<RtClient> {
  const ws = new WebSocket(wsUrl(sb, opts.query), opts.protocols ?? [], { headers: opts.headers ?? {} });
  const events: Event[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    events.push(JSON.parse(String(data)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const w of waiters.splice(0)) w();
    }),
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const until = (type: string, n = 1) =>
    new Promise<Event>((resolve, reject) => {
      const check = () => {
        const found = events.filter((e) => e.type === type);
        if (found.length >= n) resolve(found[n - 1]);
        else if (ws.readyState === ws.CLOSED) reject(new Error(`closed before ${type} #${n}; got ${events.map((e) => e.type).join(', ')}`));
        else waiters.push(check);
      };
      check();
    });
  return {
    ws,
    events,
    protocol: ws.protocol,
    send: (e) => ws.send(JSON.stringify(e)),
    until,
    types: (from = 0) => events.slice(from).map((e) => e.type),
    closed,
    close: () => ws.close(),
  };
}

/** The HTTP refusal of an upgrade: status and the JSON error body. */
export function refusal(sb: SandboxServer, query: string, headers: Record<string, string>, protocols: string[] = []): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(sb, query), protocols, { headers });
    ws.once('open', () => reject(new Error(`upgraded: ${query}`)));
    ws.once('error', () => undefined);
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
  });
}

export async function mintSecret(sb: SandboxServer, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${sb.url}/v1/realtime/client_secrets`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

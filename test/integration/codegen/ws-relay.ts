/**
 * A transparent relay in front of the sandbox for code-export tests: HTTP requests and WebSocket
 * messages pass through unchanged both ways, and what the client sent is recorded (each request's
 * method, path and JSON body; each text message parsed), so two programs' traffic can be compared.
 * It answers nothing itself: every answer is the sandbox's.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';

export interface Sent {
  kind: 'http' | 'ws';
  path: string;
  body: unknown;
}

export interface Relay {
  url: string;
  sent: Sent[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startRelay(target: string): Promise<Relay> {
  const sent: Sent[] = [];
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      let parsed: unknown = body.toString();
      try {
        parsed = JSON.parse(body.toString());
      } catch {
        // Kept as text.
      }
      sent.push({ kind: 'http', path: `${req.method} ${req.url}`, body: parsed });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'content-length', 'connection'].includes(k)) headers[k] = v;
      const answer = await fetch(target + req.url, { method: req.method, headers, body: body.length > 0 ? body : undefined });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    })();
  });
  server.on('upgrade', (req, socket, head) => {
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    wss.handleUpgrade(req, socket, head, (client) => {
      const upstream = new WebSocket(target.replace(/^http/, 'ws') + req.url, protocols, { maxPayload: 0 });
      const pending: string[] = [];
      client.on('message', (data) => {
        const text = String(data);
        sent.push({ kind: 'ws', path: req.url ?? '', body: JSON.parse(text) });
        if (upstream.readyState === WebSocket.OPEN) upstream.send(text);
        else pending.push(text);
      });
      upstream.on('open', () => {
        for (const text of pending.splice(0)) upstream.send(text);
      });
      upstream.on('message', (data) => client.send(String(data)));
      upstream.on('close', (code, reason) => client.close(code === 1005 ? 1000 : code, reason));
      upstream.on('error', () => client.terminate());
      client.on('close', () => upstream.close());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    sent,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        server.close(() => r());
      }),
  };
}

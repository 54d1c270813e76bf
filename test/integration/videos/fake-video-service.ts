/**
 * A tiny scriptable video service for the job tests (the sandbox-backed ones are video-sandbox and
 * video-kill; this one scripts what the sandbox cannot: a download cut midway, a 404 URL): creates
 * honour `Idempotency-Key`; a video is pending for `pendingPolls` polls, then done with a URL this
 * server serves. The prompt picks what happens: `fail:<code>`, `moderate`, `expire` (the URL
 * answers 404), `cut` (the first download drops midway), `store` (file_output and storage_error),
 * `http:<status>` (the create is refused), `busy` (the create answers 503 three times first).
 * `outage` takes the whole service away: `network` drops every connection unanswered, `busy`
 * answers every request 503 with `Retry-After: 0`; null brings it back.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeVideo {
  id: string;
  prompt: string;
  polls: number;
  downloads: number;
}

export interface FakeVideoService {
  url: string;
  creates: number;
  /** Creates answered by a new video (replays of a known Idempotency-Key are not counted). */
  made: number;
  videos: Map<string, FakeVideo>;
  pendingPolls: number;
  busyLeft: number;
  outage: 'network' | 'busy' | null;
  /** Requests that met an outage. */
  refused: number;
  /** The headers of the last create. */
  lastCreateHeaders: Record<string, string | string[] | undefined>;
  bytesOf(id: string): Buffer;
  close(): Promise<void>;
}

/** Deterministic "MP4" bytes (an ftyp box, then filler), ~200 KB. */
export function fakeMp4(id: string): Buffer {
  const head = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
  const seed = createHash('sha256').update(id).digest();
  const body = Buffer.alloc(200_000);
  for (let i = 0; i < body.length; i++) body[i] = seed[i % 32]! ^ (i & 0xff);
  return Buffer.concat([head, body]);
}

export async function startFakeVideoService(options: { pendingPolls?: number } = {}): Promise<FakeVideoService> {
  const keys = new Map<string, string>();
  const svc: FakeVideoService = {
    url: '',
    creates: 0,
    made: 0,
    videos: new Map(),
    pendingPolls: options.pendingPolls ?? 2,
    busyLeft: 3,
    outage: null,
    refused: 0,
    lastCreateHeaders: {},
    bytesOf: fakeMp4,
    close: async () => undefined,
  };
  let next = 0;
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    if (svc.outage) {
      svc.refused += 1;
      if (svc.outage === 'network') return req.socket.destroy();
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      return res.end(JSON.stringify({ code: 'The service is currently unavailable', error: 'down for maintenance' }));
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method === 'POST' && /^\/v1\/videos\/(generations|edits|extensions)$/.test(path)) {
        svc.creates += 1;
        svc.lastCreateHeaders = req.headers;
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { prompt?: string };
        const prompt = body.prompt ?? '';
        const status = /^http:(\d+)/.exec(prompt)?.[1];
        if (status) return json(res, Number(status), { code: 'Client specified an invalid argument', error: `refused: ${prompt}` });
        if (prompt.startsWith('busy') && svc.busyLeft > 0) {
          svc.busyLeft -= 1;
          res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
          return res.end(JSON.stringify({ code: 'The service is currently unavailable', error: 'overloaded' }));
        }
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string' && keys.has(key)) return json(res, 200, { request_id: keys.get(key) });
        const id = `vid-${(next += 1)}-${Date.now()}`;
        if (typeof key === 'string') keys.set(key, id);
        svc.made += 1;
        svc.videos.set(id, { id, prompt, polls: 0, downloads: 0 });
        return json(res, 200, { request_id: id });
      }
      const poll = /^\/v1\/videos\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && poll) {
        const v = svc.videos.get(decodeURIComponent(poll[1]!));
        if (!v) return json(res, 404, { code: 'Some requested entity was not found', error: 'no such video' });
        v.polls += 1;
        if (v.polls <= svc.pendingPolls) return json(res, 200, { status: 'pending', progress: Math.round((v.polls / (svc.pendingPolls + 1)) * 100), model: 'fake-video' });
        const code = /^fail:(\w+)/.exec(v.prompt)?.[1];
        if (code) return json(res, 200, { status: 'failed', error: { code, message: `fake failure ${code}` } });
        const moderated = v.prompt.startsWith('moderate');
        const store = v.prompt.startsWith('store');
        return json(res, 200, {
          status: 'done',
          progress: 100,
          model: 'fake-video',
          usage: { cost_in_usd_ticks: 5_000_000_000 },
          video: {
            url: moderated ? '' : `${svc.url}/media/${v.id}.mp4?sig=abc`,
            duration: 3,
            respect_moderation: !moderated,
            ...(store ? { storage_error: 'PUT to upload_url answered 403', file_output: { file_id: `file-${v.id}`, filename: 'kept.mp4', expires_at: null } } : {}),
          },
        });
      }
      const media = /^\/media\/([^/]+)\.mp4$/.exec(path);
      if (req.method === 'GET' && media) {
        const v = svc.videos.get(media[1]!);
        if (!v || v.prompt.startsWith('expire')) return json(res, 404, { error: 'link expired' });
        if (req.headers.authorization) return json(res, 400, { error: 'a key was sent to the result URL' });
        v.downloads += 1;
        const bytes = fakeMp4(v.id);
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) });
        if (v.prompt.startsWith('cut') && v.downloads === 1) {
          res.write(bytes.subarray(0, 50_000));
          setTimeout(() => res.destroy(), 20);
          return;
        }
        return res.end(bytes);
      }
      const file = /^\/v1\/files\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && file) {
        return json(res, 200, { id: file[1], object: 'file', bytes: 203_000, created_at: Math.floor(Date.now() / 1000), expires_at: null, filename: 'kept.mp4' });
      }
      json(res, 404, { error: `no route ${req.method} ${path}` });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  svc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc.close = () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return svc;
}

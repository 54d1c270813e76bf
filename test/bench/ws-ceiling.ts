/**
 * What Chromium itself can push from a page to a local Node process, without the workbench: the
 * ceiling under browser mode's dropUpload figure. A bare `ws` server (the word-wise unmask of
 * main/host/ws-mask.ts installed, perMessageDeflate off, one JSON ack per message) and a bare HTTP
 * server that counts POST bodies. From the page, a File made of references to one 1 MiB Blob:
 *   - ws.send(Uint8Array) of slices read with arrayBuffer(), several slice sizes and windows
 *     (the shape of userFiles.upload over the socket), also over 2 sockets at once;
 *   - ws.send(Blob slice) (Blink reads the slice itself);
 *   - fetch POST of Blob slices (the browser streams the blob: the page never reads it) and of
 *     Uint8Array slices read in the page.
 * Each case moves the same bytes once; load average beside each figure (the machine is shared).
 * `npx tsx test/bench/ws-ceiling.ts [MiB]` (default 256). Not in run.ts: it explains a figure,
 * it is not one of the app's.
 */
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { installWsMask } from '../../main/host/ws-mask';

const MIB = 2 ** 20;

type Case =
  | { kind: 'wsBytes'; sliceKiB: number; window: number; sockets: number }
  | { kind: 'wsBlob'; sliceKiB: number; window: number; sockets: number }
  | { kind: 'fetchBlob'; sliceKiB: number; window: number }
  | { kind: 'fetchBytes'; sliceKiB: number; window: number };

const CASES: Case[] = [
  { kind: 'wsBytes', sliceKiB: 1024, window: 4, sockets: 1 },
  { kind: 'wsBytes', sliceKiB: 256, window: 16, sockets: 1 },
  { kind: 'wsBytes', sliceKiB: 4096, window: 4, sockets: 1 },
  { kind: 'wsBytes', sliceKiB: 8192, window: 2, sockets: 1 },
  { kind: 'wsBytes', sliceKiB: 1024, window: 4, sockets: 2 },
  { kind: 'wsBlob', sliceKiB: 1024, window: 4, sockets: 1 },
  { kind: 'wsBlob', sliceKiB: 4096, window: 4, sockets: 1 },
  { kind: 'wsBlob', sliceKiB: 1024, window: 16, sockets: 1 },
  { kind: 'fetchBlob', sliceKiB: 8192, window: 2 },
  { kind: 'fetchBytes', sliceKiB: 8192, window: 2 },
];

/** Runs in the page (a string: tsx's esbuild would wrap a named function in a helper the page lacks). */
const PAGE_RUN = `async ({ port, totalMiB, c }) => {
  const MIB = 1 << 20;
  const chunk = new Blob([new Uint8Array(MIB).fill(7)]);
  const file = new File(new Array(totalMiB).fill(chunk), 'x');
  const S = c.sliceKiB * 1024;
  let next = 0;
  const take = () => { if (next >= file.size) return null; const off = next; next += S; return file.slice(off, off + S); };
  const viaSocket = async () => {
    const ws = new WebSocket('ws://127.0.0.1:' + port + '/');
    ws.binaryType = 'arraybuffer';
    await new Promise((r, j) => { ws.onopen = r; ws.onerror = j; });
    let acked = 0, sent = 0; const waiters = [];
    ws.onmessage = (e) => { acked = JSON.parse(e.data).ack; for (const w of waiters.splice(0)) w(); };
    for (let slice = take(); slice; slice = take()) {
      while (sent - acked >= c.window * S) await new Promise((r) => waiters.push(r));
      const size = slice.size;
      ws.send(c.kind === 'wsBlob' ? slice : new Uint8Array(await slice.arrayBuffer()));
      sent += size;
    }
    while (acked < sent) await new Promise((r) => waiters.push(r));
    ws.close();
  };
  const viaFetch = async () => {
    for (let slice = take(); slice; slice = take()) {
      const body = c.kind === 'fetchBlob' ? slice : new Uint8Array(await slice.arrayBuffer());
      const res = await fetch('/up', { method: 'POST', body });
      if (Number(await res.text()) !== slice.size) throw new Error('short body');
    }
  };
  const t0 = performance.now();
  const lanes = c.kind.startsWith('ws') ? Array.from({ length: c.sockets }, viaSocket) : Array.from({ length: c.window }, viaFetch);
  await Promise.all(lanes);
  return performance.now() - t0;
}`;

export async function run(totalMiB = 256): Promise<Record<string, unknown>> {
  installWsMask();
  const { WebSocketServer } = await import('ws');
  const { chromium } = await import('playwright-core');
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>ceiling</title>');
      return;
    }
    let bytes = 0;
    req.on('data', (d: Buffer) => (bytes += d.length));
    req.on('end', () => res.end(String(bytes)));
  });
  const wss = new WebSocketServer({ server, maxPayload: 64 * MIB, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    let got = 0;
    ws.on('message', (data: Buffer) => {
      got += data.length;
      ws.send(JSON.stringify({ ack: got }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const results = [];
    // WS_CEILING_ONLY=wsBlob runs one kind.
    for (const c of CASES.filter((k) => !process.env.WS_CEILING_ONLY || k.kind === process.env.WS_CEILING_ONLY)) {
      const before = loadavg()[0];
      const ms = (await page.evaluate(`(${PAGE_RUN})(${JSON.stringify({ port, totalMiB, c })})`)) as number;
      results.push({ ...c, MiBps: Math.round(totalMiB / (ms / 1000)), load: Math.round(((before + loadavg()[0]) / 2) * 10) / 10 });
    }
    return { totalMiB, source: 'a File of 1 MiB Blob references made in the page', results };
  } finally {
    await browser.close();
    wss.close();
    server.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void run(Number(process.argv[2] ?? 256)).then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}

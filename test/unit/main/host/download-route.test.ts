import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentDisposition, serveDownload } from '../../../../main/host/download-route';
import { DownloadTickets } from '../../../../main/services/download-tickets';

describe('host/download-route', () => {
  let dir: string;
  let tickets: DownloadTickets;
  let server: Server;
  let base: string;
  let clock = 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-dl-'));
    clock = 1_000;
    tickets = new DownloadTickets({ dir: join(dir, 'tickets'), now: () => clock });
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!serveDownload(req, res, url.pathname, tickets, { 'X-Frame-Options': 'DENY' }, () => {})) {
        res.writeHead(418);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterEach(async () => {
    await new Promise((r) => server.close(r));
    tickets.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function publish(name: string, body: string): string {
    const { token, path } = tickets.reserve();
    writeFileSync(path, body);
    return tickets.publish(token, { path, filename: name, bytes: Buffer.byteLength(body) });
  }

  it('serves a published file once, as an attachment, then deletes it', async () => {
    const link = publish('résumé "final".pdf', 'hello');
    const res = await fetch(`${base}${link}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`);
    expect(res.headers.get('content-length')).toBe('5');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toBe('hello');
    const again = await fetch(`${base}${link}`);
    expect(again.status).toBe(404);
    expect(await again.text()).toMatch(/expired or was already used/);
    await expect.poll(() => existsSync(join(dir, 'tickets', link.split('/').pop()!))).toBe(false);
  });

  it('refuses unknown, malformed and expired links, and other methods; leaves other paths alone', async () => {
    const link = publish('a.txt', 'a');
    expect((await fetch(`${base}/downloads/${'x'.repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${base}/downloads/../etc/passwd`)).status).toBe(418);
    expect((await fetch(`${base}/downloads/short`)).status).toBe(404);
    expect((await fetch(`${base}${link}`, { method: 'POST' })).status).toBe(405);
    clock += 60_001;
    expect((await fetch(`${base}${link}`)).status).toBe(404);
    expect((await fetch(`${base}/other`)).status).toBe(418);
  });

  it('contentDisposition() keeps ASCII names readable', () => {
    expect(contentDisposition('notes.txt')).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
  });

  it('contentDisposition() gives the exact name in filename* (RFC 6266/5987), quotes and accents included', () => {
    const header = contentDisposition(`résumé "final" (v2)'s*.txt`);
    expect(header).toBe(`attachment; filename="r_sum_ _final_ (v2)'s*.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%20%28v2%29%27s%2A.txt`);
    // Only RFC 5987 attr-chars and %XX after UTF-8'': what a strict parser reads back is the name.
    const exact = /filename\*=UTF-8''(.*)$/.exec(header)![1]!;
    expect(exact).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]*$/);
    expect(decodeURIComponent(exact)).toBe(`résumé "final" (v2)'s*.txt`);
  });
});

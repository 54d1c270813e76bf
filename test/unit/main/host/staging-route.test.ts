// POST /stage from outside, as the page (and an attacker) would send it: the token, the Host
// check, the size limit, byte-exact staging of a large body, and clean-up when the client leaves.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../../../shared/contract/index';
import { STAGE_NAME_HEADER, STAGE_UPLOAD_ID_HEADER } from '../../../../shared/contract/user-files';
import { startBrowserServer, type BrowserServer } from '../../../../main/host/browser-server';
import { createHost } from '../../../../main/host/host';
import { UserFiles } from '../../../../main/services/user-files';
import { createFakeHandlers } from './fake-handlers';

const LIMIT = 12 * 1024 * 1024;
let root: string;
let stagingDir: string;
let userFiles: UserFiles;
let server: BrowserServer;
const logs: string[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wb-stage-'));
  stagingDir = join(root, 'staging');
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html>');
  userFiles = new UserFiles({ stagingDir, log: (line) => logs.push(line) });
  const host = createHost({ contract, handlers: createFakeHandlers().handlers });
  server = await startBrowserServer({ host, staticDir: join(root, 'renderer'), userFiles, maxUploadBytes: LIMIT, log: (line) => logs.push(line) });
});

afterAll(async () => {
  await server.close();
  userFiles.dispose();
  rmSync(root, { recursive: true, force: true });
});

interface Result {
  status: number;
  body: string;
}

function post(body: Buffer | null, headers: Record<string, string | undefined> = {}): Promise<Result> {
  const all: Record<string, string> = {
    Host: `127.0.0.1:${server.port}`,
    Authorization: `Bearer ${server.token}`,
    [STAGE_NAME_HEADER]: encodeURIComponent('résumé 1.pdf'),
    'Content-Type': 'application/pdf',
  };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete all[k];
    else all[k] = v;
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/stage', method: 'POST', headers: all }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    // A refusal may close the socket while we are still sending; the answer has arrived by then.
    req.on('error', (err) => reject(err));
    req.end(body ?? undefined);
  });
}

const partFiles = () => readdirSync(stagingDir).filter((f) => f.endsWith('.part'));

describe('staging-route', () => {
  describe('POST /stage', () => {
    it('stages a 10 MB upload byte for byte and answers its FileRef', async () => {
      const bytes = randomBytes(10 * 1024 * 1024);
      const res = await post(bytes);
      expect(res.status).toBe(200);
      const ref = JSON.parse(res.body) as { ref: string; name: string; size: number; type: string };
      expect(ref).toEqual({ ref: expect.stringMatching(/^ref_/), name: 'résumé 1.pdf', size: bytes.length, type: 'application/pdf' });
      expect(readFileSync(userFiles.resolve(ref.ref).path).equals(bytes)).toBe(true);
    });

    it('answers 401 without the token or with a wrong one, staging nothing', async () => {
      const before = readdirSync(stagingDir).length;
      expect((await post(Buffer.from('x'), { Authorization: undefined })).status).toBe(401);
      expect((await post(Buffer.from('x'), { Authorization: 'Bearer nope' })).status).toBe(401);
      expect(readdirSync(stagingDir)).toHaveLength(before);
    });

    it('answers 403 to a request naming another Host (DNS rebinding)', async () => {
      expect((await post(Buffer.from('x'), { Host: 'evil.example:80' })).status).toBe(403);
    });

    it('answers 403 to another site’s Origin even with the token', async () => {
      expect((await post(Buffer.from('x'), { Origin: 'https://evil.example' })).status).toBe(403);
      expect((await post(Buffer.from('x'), { Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
    });

    it('answers 400 without a file name', async () => {
      const res = await post(Buffer.from('x'), { [STAGE_NAME_HEADER]: undefined });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.message).toContain(STAGE_NAME_HEADER);
    });

    it('answers 413 to a body over the limit, announced or chunked, keeping nothing', async () => {
      const before = readdirSync(stagingDir).length;
      const announced = await post(null, { 'Content-Length': String(LIMIT + 1) });
      expect(announced.status).toBe(413);
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/stage',
            method: 'POST',
            headers: { Host: `127.0.0.1:${server.port}`, Authorization: `Bearer ${server.token}`, [STAGE_NAME_HEADER]: 'big.bin' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        const chunk = Buffer.alloc(1024 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent <= LIMIT + chunk.length && !req.destroyed) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expect(chunked).toBe(413);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(stagingDir)).toHaveLength(before);
    });

    it('removes the temporary file when the client goes away mid-upload', async () => {
      const before = readdirSync(stagingDir).length;
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/stage',
        method: 'POST',
        headers: {
          Host: `127.0.0.1:${server.port}`,
          Authorization: `Bearer ${server.token}`,
          [STAGE_NAME_HEADER]: 'half.bin',
          'Content-Length': String(4 * 1024 * 1024),
        },
      });
      req.on('error', () => {});
      req.write(Buffer.alloc(1024 * 1024, 1));
      const deadline = Date.now() + 5_000;
      while (partFiles().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(partFiles()).toHaveLength(1);
      req.destroy();
      const stopped = () => logs.some((line) => line.includes('upload of "half.bin" stopped by the page'));
      // The temporary file goes first, then the route logs: wait for both.
      while ((partFiles().length > 0 || !stopped()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(partFiles()).toEqual([]);
      expect(readdirSync(stagingDir)).toHaveLength(before);
      expect(stopped()).toBe(true);
    });

    it('sends the CSP and security headers with its answers', async () => {
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: server.port, path: '/stage', method: 'POST', headers: { Host: `127.0.0.1:${server.port}` } },
          (res) => {
            res.resume();
            resolve(res.headers);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(headers['content-security-policy']).toContain("connect-src 'self'");
      expect(headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('stalls', () => {
    const STALL = { timeoutMs: 500, minBytes: 1024 };
    let slowServer: BrowserServer;
    let slowDir: string;
    let slowFiles: UserFiles;

    beforeAll(async () => {
      slowDir = join(root, 'slow-staging');
      slowFiles = new UserFiles({ stagingDir: slowDir, log: (line) => logs.push(line) });
      const host = createHost({ contract, handlers: createFakeHandlers().handlers });
      slowServer = await startBrowserServer({ host, staticDir: join(root, 'renderer'), userFiles: slowFiles, stageStall: STALL, log: (line) => logs.push(line) });
    });

    afterAll(async () => {
      await slowServer.close();
      slowFiles.dispose();
    });

    /**
     * POSTs `total` bytes to the slow server, `chunk` bytes every `everyMs`, and resolves with the
     * answer (or with status 0 if the server closed the connection without one).
     */
    function trickle(name: string, total: number, chunk: number, everyMs: number): Promise<Result & { sent: number }> {
      return new Promise((resolve) => {
        let sent = 0;
        const req = request(
          {
            host: '127.0.0.1',
            port: slowServer.port,
            path: '/stage',
            method: 'POST',
            headers: { Host: `127.0.0.1:${slowServer.port}`, Authorization: `Bearer ${slowServer.token}`, [STAGE_NAME_HEADER]: name, 'Content-Length': String(total) },
          },
          (res) => {
            clearInterval(timer);
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, sent }));
          },
        );
        req.on('error', () => {
          clearInterval(timer);
          resolve({ status: 0, body: '', sent });
        });
        // Set before any callback above can run (they all wait for the network).
        const timer = setInterval(() => {
          if (sent >= total || req.destroyed) return;
          const piece = Buffer.alloc(Math.min(chunk, total - sent), 7);
          sent += piece.length;
          req.write(piece);
          if (sent >= total) req.end();
        }, everyMs);
      });
    }

    const slowParts = () => readdirSync(slowDir).filter((f) => f.endsWith('.part'));

    it('lets an upload that keeps sending run longer than the stall timeout many times over', async () => {
      // 4 KiB every 40 ms: about 2 s in all, four times the stall timeout; never stalled.
      const total = 200 * 1024;
      const started = performance.now();
      const res = await trickle('steady.bin', total, 4096, 40);
      expect(performance.now() - started).toBeGreaterThan(STALL.timeoutMs * 2);
      expect(res.status).toBe(200);
      const ref = JSON.parse(res.body) as { ref: string; size: number };
      expect(ref.size).toBe(total);
      expect(readFileSync(slowFiles.resolve(ref.ref).path).equals(Buffer.alloc(total, 7))).toBe(true);
    });

    it('stops a body that trickles a few bytes now and then (408, nothing kept)', async () => {
      const res = await trickle('trickle.bin', 1024 * 1024, 16, 50);
      expect(res.sent).toBeLessThan(1024 * 1024);
      // The answer may be lost while the client is still sending; the connection is closed either way.
      expect([408, 0]).toContain(res.status);
      if (res.status === 408) {
        const error = JSON.parse(res.body).error as { code: string; message: string };
        expect(error.code).toBe('timeout');
        expect(error.message).toMatch(/"trickle\.bin" stalled: less than 1 KiB arrived in 1 s.*nothing was kept.*try again/);
      }
      expect(logs.some((line) => line.includes('upload of "trickle.bin" stalled'))).toBe(true);
      expect(slowParts()).toEqual([]);
    });

    it('stops a body that stops sending, and removes its partial file', async () => {
      const req = request({
        host: '127.0.0.1',
        port: slowServer.port,
        path: '/stage',
        method: 'POST',
        headers: { Host: `127.0.0.1:${slowServer.port}`, Authorization: `Bearer ${slowServer.token}`, [STAGE_NAME_HEADER]: 'stuck.bin', 'Content-Length': String(1024 * 1024) },
      });
      const answer = new Promise<number>((resolve) => {
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', () => resolve(0));
      });
      req.write(Buffer.alloc(64 * 1024, 1));
      expect(await answer).toBe(408);
      expect(logs.some((line) => line.includes('upload of "stuck.bin" stalled after 65536 bytes'))).toBe(true);
      expect(slowParts()).toEqual([]);
      expect(readdirSync(slowDir)).toEqual(readdirSync(slowDir).filter((f) => f.endsWith('.bin')));
    });
  });

  describe('bounds', () => {
    let fullServer: BrowserServer;
    let fullFiles: UserFiles;

    beforeAll(async () => {
      fullFiles = new UserFiles({ stagingDir: join(root, 'full-staging'), log: (line) => logs.push(line), bounds: { maxFiles: 1, maxBytes: 64 * 1024 } });
      const host = createHost({ contract, handlers: createFakeHandlers().handlers });
      fullServer = await startBrowserServer({ host, staticDir: join(root, 'renderer'), userFiles: fullFiles, log: (line) => logs.push(line) });
    });

    afterAll(async () => {
      await fullServer.close();
      fullFiles.dispose();
    });

    function postTo(body: Buffer, name: string): Promise<Result> {
      return new Promise((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: fullServer.port,
            path: '/stage',
            method: 'POST',
            headers: { Host: `127.0.0.1:${fullServer.port}`, Authorization: `Bearer ${fullServer.token}`, [STAGE_NAME_HEADER]: name },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', () => resolve({ status: 0, body: '' }));
        req.end(body);
      });
    }

    it('answers 507 with what to do when staging holds as many bytes or files as it keeps', async () => {
      const tooMuch = await postTo(Buffer.alloc(80 * 1024), 'big.bin');
      expect(tooMuch.status).toBe(507);
      expect(JSON.parse(tooMuch.body).error.message).toMatch(/Can't take "big\.bin" \(80\.0 KiB\): .*64\.0 KiB it keeps at once.*Send or remove/);
      const first = await postTo(Buffer.alloc(1024), 'one.txt');
      expect(first.status).toBe(200);
      const second = await postTo(Buffer.alloc(1024), 'two.txt');
      expect(second.status).toBe(507);
      expect(JSON.parse(second.body).error.message).toMatch(/already holds 1 file, the most it keeps at once/);
      fullFiles.release((JSON.parse(first.body) as { ref: string }).ref);
      expect((await postTo(Buffer.alloc(1024), 'two.txt')).status).toBe(200);
    });
  });

  describe('DELETE /stage/<upload id> (the page\'s Cancel)', () => {
    const ID = 'upload_0123456789abcdef';

    function cancel(id: string, headers: Record<string, string> = { Authorization: `Bearer ${server.token}` }): Promise<Result> {
      return new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: `/stage/${id}`, method: 'DELETE', headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end();
      });
    }

    it('stops a running upload under the id and answers once its partial file is gone', async () => {
      const id = `${ID}-running`;
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/stage',
        method: 'POST',
        headers: {
          Host: `127.0.0.1:${server.port}`,
          Authorization: `Bearer ${server.token}`,
          [STAGE_NAME_HEADER]: 'cancelled.bin',
          [STAGE_UPLOAD_ID_HEADER]: id,
          'Content-Length': String(4 * 1024 * 1024),
        },
      });
      req.on('error', () => {});
      req.write(Buffer.alloc(1024 * 1024, 1));
      const deadline = Date.now() + 5_000;
      while (partFiles().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(partFiles()).toHaveLength(1);
      const res = await cancel(id);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ aborted: 1, released: 0 });
      // Gone when the answer came, not some time later.
      expect(partFiles()).toEqual([]);
      req.destroy();
    });

    it('removes the files already staged under the id, and a second cancel finds nothing', async () => {
      const id = `${ID}-done`;
      const before = readdirSync(stagingDir).length;
      const first = await post(Buffer.from('one'), { [STAGE_UPLOAD_ID_HEADER]: id });
      const second = await post(Buffer.from('two'), { [STAGE_UPLOAD_ID_HEADER]: id });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(readdirSync(stagingDir)).toHaveLength(before + 2);
      const res = await cancel(id);
      expect(JSON.parse(res.body)).toEqual({ aborted: 0, released: 2 });
      for (const answer of [first, second]) expect(() => userFiles.resolve((JSON.parse(answer.body) as { ref: string }).ref)).toThrow(/unknown or has expired/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readdirSync(stagingDir)).toHaveLength(before);
      expect(JSON.parse((await cancel(id)).body)).toEqual({ aborted: 0, released: 0 });
    });

    it('needs the token, a well-formed id and DELETE', async () => {
      expect((await cancel(`${ID}-x`, {})).status).toBe(401);
      expect((await cancel('short')).status).toBe(400);
      expect((await post(Buffer.from('x'), { [STAGE_UPLOAD_ID_HEADER]: 'no spaces allowed here!' })).status).toBe(400);
      const wrongMethod = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: `/stage/${ID}`, method: 'POST', headers: { Host: `127.0.0.1:${server.port}`, Authorization: `Bearer ${server.token}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(wrongMethod).toBe(405);
    });
  });
});

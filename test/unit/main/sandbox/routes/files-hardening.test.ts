/**
 * What a hostile client or web page can do with the sandbox's files and HTTP surface (issue 14,
 * item 26): uploaded pages must not run, URLs and answers must not follow a forged Host, Range is
 * read strictly, client text cannot forge log lines, and the form's rules hold.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { escapeLogLine } from '../../../../../main/sandbox/log-line';
import { KEY, startHarness, useHarness } from '../harness';
import { BOUNDARY, call, refusal, upload, uploadFile } from './files-form';

const lines: string[] = [];
const h = useHarness({ log: (line) => lines.push(line) });

/** A GET with a Host of our choosing (fetch does not let a test set it). */
function getWithHost(path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: h.sandbox.port, path, headers: { host, authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function publish(id: string): Promise<string> {
  return ((await (await call(h, 'POST', `/v1/files/${id}/public-url`, {})).json()) as { public_url: string }).public_url;
}

describe('sandbox files: hardening', () => {
  it('serves an uploaded HTML page as a sandboxed attachment with nosniff; a PNG stays inline', async () => {
    const page = await upload(h, [{ name: 'file', filename: 'page.html', contentType: 'text/html', body: '<script>alert(document.domain)</script>' }]);
    const html = await fetch(await publish(((await page.json()) as { id: string }).id));
    expect(html.status).toBe(200);
    expect(html.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(html.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html.headers.get('content-security-policy')).toMatch(/(^|; )sandbox(;|$)/);
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const type of ['image/svg+xml', 'application/xhtml+xml', 'text/xml']) {
      const res = await upload(h, [{ name: 'file', filename: 'x', contentType: type, body: '<x/>' }]);
      const got = await fetch(await publish(((await res.json()) as { id: string }).id));
      expect([type, got.headers.get('content-disposition')?.split(';')[0]]).toEqual([type, 'attachment']);
    }
    const png = await upload(h, [{ name: 'file', filename: 'p.png', contentType: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]);
    const pic = await fetch(await publish(((await png.json()) as { id: string }).id));
    expect(pic.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(pic.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('builds public URLs from the address it listens on, not from the Host the client sent', async () => {
    const file = await uploadFile(h, 'a.txt', 'a');
    await publish(file.id);
    const got = await getWithHost(`/v1/files/${file.id}`, `localhost:${h.sandbox.port}`);
    expect(got.status).toBe(200);
    expect((JSON.parse(got.body) as { public_url: string }).public_url.startsWith(`${h.sandbox.url}/public/`)).toBe(true);
  });

  it('refuses a Host that is not a loopback name (DNS rebinding); any port passes (a loopback proxy sends its own)', async () => {
    const port = h.sandbox.port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'evil.example', `[::2]:${port}`]) {
      const got = await getWithHost('/v1/models', host);
      expect([host, got.status]).toEqual([host, 403]);
      expect(JSON.parse(got.body).error).toContain('only answers requests addressed to it by a loopback name');
    }
    for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `127.0.0.1:${port}`, `127.1.2.3:${port}`, `[::1]:${port}`, `127.0.0.1:${port + 1}`, 'localhost']) {
      expect([host, (await getWithHost('/v1/models', host)).status]).toEqual([host, 200]);
    }
    // Public routes too: a rebinding page must not read a public file through its own name.
    const file = await uploadFile(h, 'b.txt', 'b');
    const url = new URL(await publish(file.id));
    expect((await getWithHost(url.pathname, `evil.example:${port}`)).status).toBe(403);
  });

  it('reads Range strictly (RFC 9110): positions past 2^53 are 416 or clamped, whitespace inside is ignored', async () => {
    const file = await uploadFile(h, 'digits.txt', '0123456789');
    const read = async (range: string) => {
      const res = await fetch(`${h.sandbox.url}/v1/files/${file.id}/content`, { headers: { authorization: `Bearer ${KEY}`, range } });
      return { status: res.status, range: res.headers.get('content-range'), text: res.status === 416 ? '' : await res.text() };
    };
    expect(await read('bytes=9007199254740993-')).toEqual({ status: 416, range: 'bytes */10', text: '' });
    expect(await read('bytes=9007199254740992-9007199254740999')).toEqual({ status: 416, range: 'bytes */10', text: '' });
    expect(await read('bytes=5-9007199254740993')).toEqual({ status: 206, range: 'bytes 5-9/10', text: '56789' });
    expect(await read('bytes=-9007199254740993')).toEqual({ status: 206, range: 'bytes 0-9/10', text: '0123456789' });
    expect(await read('bytes=1 -2')).toEqual({ status: 200, range: null, text: '0123456789' });
    expect(await read('bytes= 1-2')).toEqual({ status: 200, range: null, text: '0123456789' });
    expect(await read('bytes=1-2')).toEqual({ status: 206, range: 'bytes 1-2/10', text: '12' });
  });

  it('writes client text into the log as one line: line breaks and escape codes are escaped', async () => {
    lines.length = 0;
    const body = '{"model": "svc-4",\n"messages": [{"role": "user", "content": "Say hi"}],\r\n"x": "\u2028"}';
    const res = await h.post('/v1/chat/completions', body, { 'x-sandbox-fault': 'delay=1' });
    expect(res.status).toBe(200);
    const fault = lines.find((l) => l.startsWith('fault delay=1'));
    expect(fault).toContain('{"model": "svc-4",\\n"messages"');
    // eslint-disable-next-line no-control-regex
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(escapeLogLine('a.txt\nsandbox listening on http://evil\u001b[2J\u009b31m\u2028\t')).toBe(
      'a.txt\\nsandbox listening on http://evil\\x1b[2J\\x9b31m\\u2028\\t',
    );
  });

  it('refuses a file name with a backslash, however it is escaped, and names the rule', async () => {
    const send = (disposition: string) =>
      fetch(`${h.sandbox.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\nevil\r\n--${BOUNDARY}--\r\n`,
      });
    // As a browser or plain curl sends it (the backslash raw), and as curl --form-escape does (doubled).
    for (const disposition of ['name="file"; filename="..\\evil.txt"', 'name="file"; filename="..\\\\evil.txt"', 'name="file"; filename="a\\b"']) {
      const got = await refusal(await send(disposition));
      expect([disposition, got.status]).toEqual([disposition, 400]);
      expect(got.error).toMatch(/must be a plain file name without a path/);
    }
  });

  it('refuses a form that repeats a field (which expires_after would count?)', async () => {
    const res = await upload(h, [{ name: 'expires_after', body: '3600' }, { name: 'expires_after', body: '7200' }, { name: 'file', filename: 'a.txt', body: 'a' }]);
    expect(await refusal(res)).toEqual({ status: 400, error: 'The form has the field expires_after more than once; send each field once.' });
    const purpose = await upload(h, [{ name: 'purpose', body: 'a' }, { name: 'purpose', body: 'b' }, { name: 'file', filename: 'a.txt', body: 'a' }]);
    expect((await refusal(purpose)).status).toBe(400);
  });
});

describe('sandbox: a body that stalls', () => {
  it('keeps no limit on total time (Node default 300 s requestTimeout is off)', async () => {
    const { createSandboxHttpServer } = await import('../../../../../main/sandbox/server');
    const { FaultBook } = await import('../../../../../main/sandbox/faults');
    const { createClock } = await import('../../../../../main/sandbox/clock');
    const { createKeyRing } = await import('../../../../../main/sandbox/auth');
    const http = createSandboxHttpServer({ routes: [], keyRing: createKeyRing(['sk-x']), faults: new FaultBook(), clock: createClock(), log: () => undefined });
    expect(http.server.requestTimeout).toBe(0);
  });

  it('takes a trickling upload longer than the stall timeout, and answers 408 to one that stalls (the partial file removed)', async () => {
    const t = await startHarness({ bodyStallMs: 1500 });
    try {
      const head = (length: number) =>
        `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1:${t.sandbox.port}\r\nAuthorization: Bearer ${KEY}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
      const start = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.txt"\r\n\r\n`;
      const end = `\r\n--${BOUNDARY}--\r\n`;
      const payload = 'x'.repeat(20);
      const { connect } = await import('node:net');
      const exchange = (steps: (write: (s: string) => void) => Promise<void>): Promise<string> =>
        new Promise((resolve, reject) => {
          const socket = connect(t.sandbox.port, '127.0.0.1');
          let answer = '';
          socket.setEncoding('utf8');
          socket.on('data', (c: string) => (answer += c));
          socket.on('close', () => resolve(answer));
          socket.on('error', reject);
          socket.on('connect', () => void steps((s) => socket.write(s)));
        });
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // 20 bytes, one every 120 ms: 2.4 s in all, past the 1.5 s stall timeout, never stalling for long
      // (a loaded machine may delay a tick, so the gaps stay far below the timeout).
      const trickled = await exchange(async (write) => {
        write(head(start.length + payload.length + end.length) + start);
        for (const c of payload) {
          await sleep(120);
          write(c);
        }
        write(end);
      });
      expect(trickled).toMatch(/^HTTP\/1\.1 200 /);
      expect(trickled).toContain('"filename":"slow.txt"');
      // Half the file, then nothing: a 408 after the stall, and no file left behind.
      const stalled = await exchange(async (write) => {
        write(head(start.length + payload.length + end.length) + start + payload.slice(0, 10));
      });
      expect(stalled).toMatch(/^HTTP\/1\.1 408 /);
      expect(stalled).toContain('sent nothing for 1.5 s');
      const { readdirSync } = await import('node:fs');
      await sleep(100);
      expect(readdirSync(t.sandbox.filesDir).filter((f) => f.endsWith('.part'))).toEqual([]);
      expect(t.sandbox.files.live('team-a', Date.now()).map((r) => r.filename)).toEqual(['slow.txt']);
    } finally {
      await t.sandbox.close();
    }
  });
});

import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEY, OTHER_KEY, startHarness, useHarness } from '../harness';
import { call, refusal, upload, uploadFile, type FormPart } from './files-form';

const h = useHarness();
const FILE: FormPart = { name: 'file', filename: 'notes.txt', contentType: 'text/plain', body: 'hello files' };

describe('sandbox/routes/files: POST /v1/files', () => {
  it('stores the file and answers a File object with a file_<uuid> id', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await upload(h, [{ name: 'purpose', body: 'assistants' }, FILE]);
    expect(res.status).toBe(200);
    const file = (await res.json()) as Record<string, unknown>;
    expect(file).toEqual({
      id: expect.stringMatching(/^file_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      object: 'file',
      bytes: 11,
      created_at: expect.any(Number),
      expires_at: null,
      filename: 'notes.txt',
      purpose: 'assistants',
      status: 'processed',
    });
    expect(file.created_at).toBeGreaterThanOrEqual(before);
    expect(readdirSync(h.sandbox.filesDir)).toContain(file.id);
  });

  it('sets expires_at from expires_after, in both of its forms', async () => {
    const plain = await uploadFile(h, 'a.txt', 'a', { expires_after: '3600' });
    expect(plain.expires_at).toBe(plain.created_at + 3600);
    const form = await uploadFile(h, 'b.txt', 'b', { 'expires_after[anchor]': 'created_at', 'expires_after[seconds]': '2592000' });
    expect(form.expires_at).toBe(form.created_at + 2_592_000);
  });

  it('streams a 10 MB upload to disk and gives the same bytes back from /content', async () => {
    const chunk = Buffer.alloc(1 << 20);
    for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
    const head = Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/x-test\r\n\r\n');
    const tail = Buffer.from('\r\n--B--\r\n');
    const sent = createHash('sha256');
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i === 0) controller.enqueue(head);
        if (i < 10) {
          const piece = Buffer.from(chunk.map((b) => b ^ i));
          sent.update(piece);
          controller.enqueue(piece);
        } else {
          controller.enqueue(tail);
          controller.close();
        }
        i++;
      },
    });
    const res = await fetch(`${h.sandbox.url}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=B' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(200);
    const file = (await res.json()) as { id: string; bytes: number };
    expect(file.bytes).toBe(10 * (1 << 20));

    const download = await call(h, 'GET', `/v1/files/${file.id}/content`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-length')).toBe(String(10 * (1 << 20)));
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="big.bin"; filename*=UTF-8''big.bin`);
    const got = createHash('sha256').update(Buffer.from(await download.arrayBuffer())).digest('hex');
    expect(got).toBe(sent.digest('hex'));
  });

  it('answers 413 as soon as a file passes maxFileBytes and leaves no partial file on disk', async () => {
    const small = await startHarness({ maxFileBytes: 1000 });
    try {
      const ok = await upload(small, [{ ...FILE, body: Buffer.alloc(1000, 1) }]);
      expect(ok.status).toBe(200);
      const res = await upload(small, [{ ...FILE, body: Buffer.alloc(300_000, 2) }]);
      expect(await refusal(res)).toEqual({
        status: 413,
        error: "The file is larger than the sandbox's limit of 1000 bytes (maxFileBytes); upload a smaller file.",
      });
      expect(readdirSync(small.sandbox.filesDir)).toEqual([((await ok.json()) as { id: string }).id]);
    } finally {
      await small.sandbox.close();
    }
  });

  it('answers the 413 while the client is still sending (it does not wait for the rest)', async () => {
    const small = await startHarness({ maxFileBytes: 1000 });
    try {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(Buffer.from('--B\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n'));
          controller.enqueue(Buffer.alloc(5000));
          sent = 5000;
          // ...and never ends: only an early answer can settle this request.
        },
      });
      const res = await fetch(`${small.sandbox.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=B' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(sent).toBe(5000);
      expect(readdirSync(small.sandbox.filesDir)).toEqual([]);
    } finally {
      await small.sandbox.close();
    }
  });

  describe('refusals', () => {
    const cases: Array<[string, FormPart[], number, string]> = [
      ['no file part', [{ name: 'purpose', body: 'assistants' }], 400, 'The form has no file part: send the file as the part named "file" (with a filename).'],
      ['a file part without a filename', [{ name: 'file', body: 'x' }], 400, 'The file part has no filename: send Content-Disposition: form-data; name="file"; filename="...".'],
      ['an empty filename', [{ ...FILE, filename: '' }], 400, 'The file part has no filename: send Content-Disposition: form-data; name="file"; filename="...".'],
      ['a part without a name', [{ body: 'x' }, FILE], 400, 'A multipart part has no name (Content-Disposition: form-data; name="...").'],
      ['a file part under another name', [{ ...FILE, name: 'upload' }], 400, 'The file part is named "upload"; name it "file".'],
      ['two file parts', [FILE, FILE], 400, 'The form has more than one file part; upload one file per request.'],
      ['a filename with a path', [{ ...FILE, filename: 'dir/a.txt' }], 400, 'The file part\'s filename must be a plain file name without a path ("/" or "\\"); got "dir/a.txt".'],
      ['a filename ..', [{ ...FILE, filename: '..' }], 400, 'The file part\'s filename must be a plain file name without a path ("/" or "\\"); got "..".'],
      ['a filename with a control character', [{ ...FILE, filename: 'a\tb.txt' }], 400, "The file part's filename must not contain control characters."],
      ['a filename over 255 bytes', [{ ...FILE, filename: `${'é'.repeat(128)}.txt` }], 400, "The file part's filename is 260 bytes long; the limit is 255 bytes."],
      ['expires_after after the file', [FILE, { name: 'expires_after', body: '3600' }], 400, 'expires_after must come before the file part in the form: send expires_after first, then file.'],
      ['expires_after[seconds] after the file', [FILE, { name: 'expires_after[seconds]', body: '3600' }], 400, 'expires_after[seconds] must come before the file part in the form: send expires_after first, then file.'],
      ['expires_after under an hour', [{ name: 'expires_after', body: '3599' }, FILE], 400, 'expires_after must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 3599.'],
      ['expires_after over 30 days', [{ name: 'expires_after', body: '2592001' }, FILE], 400, 'expires_after must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 2592001.'],
      ['expires_after not a whole number', [{ name: 'expires_after', body: '3600.5' }, FILE], 400, 'expires_after must be a whole number of seconds between 3600 and 2592000; got "3600.5".'],
      ['expires_after[seconds] out of range', [{ name: 'expires_after[anchor]', body: 'created_at' }, { name: 'expires_after[seconds]', body: '60' }, FILE], 400, 'expires_after[seconds] must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 60.'],
      ['another anchor', [{ name: 'expires_after[anchor]', body: 'last_active_at' }, { name: 'expires_after[seconds]', body: '3600' }, FILE], 400, 'expires_after[anchor] must be "created_at"; got "last_active_at".'],
      ['an anchor without seconds', [{ name: 'expires_after[anchor]', body: 'created_at' }, FILE], 400, 'expires_after[anchor] needs expires_after[seconds].'],
      ['both expiry forms', [{ name: 'expires_after', body: '3600' }, { name: 'expires_after[seconds]', body: '3600' }, FILE], 400, 'Send either expires_after or expires_after[anchor] + expires_after[seconds], not both.'],
    ];
    it.each(cases)('refuses %s', async (_label, parts, status, error) => {
      const before = readdirSync(h.sandbox.filesDir).length;
      expect(await refusal(await upload(h, parts))).toEqual({ status, error });
      expect(readdirSync(h.sandbox.filesDir)).toHaveLength(before);
    });

    it('refuses a body that is not multipart, or has no boundary, with 415', async () => {
      const json = await fetch(`${h.sandbox.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{}' });
      expect(await refusal(json)).toEqual({
        status: 415,
        error: 'Expected a multipart/form-data body, got Content-Type "application/json". Upload files as multipart/form-data with a "file" part.',
      });
      const bare = await fetch(`${h.sandbox.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data' }, body: 'x' });
      expect((await refusal(bare)).status).toBe(415);
    });

    it('refuses a body cut short, leaving nothing on disk', async () => {
      const before = readdirSync(h.sandbox.filesDir).length;
      const res = await fetch(`${h.sandbox.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=B' },
        body: '--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhalf of it',
      });
      expect(await refusal(res)).toEqual({ status: 400, error: 'The multipart body ended in the middle of a part (no closing boundary): the upload was cut short.' });
      expect(readdirSync(h.sandbox.filesDir)).toHaveLength(before);
    });

    it('needs an API key and applies status faults before reading the body', async () => {
      const anonymous = await fetch(`${h.sandbox.url}/v1/files`, { method: 'POST', body: 'x' });
      expect(anonymous.status).toBe(401);
      const before = readdirSync(h.sandbox.filesDir).length;
      const res = await fetch(`${h.sandbox.url}/v1/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=B', 'x-sandbox-fault': 'status=503' },
        body: '--B\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx\r\n--B--\r\n',
      });
      expect(res.status).toBe(503);
      expect(readdirSync(h.sandbox.filesDir)).toHaveLength(before);
    });
  });

  it('keeps files per team: another team neither sees nor reads them', async () => {
    const mine = await uploadFile(h, 'team-a.txt', 'secret');
    expect((await call(h, 'GET', `/v1/files/${mine.id}`, undefined, OTHER_KEY)).status).toBe(404);
    expect((await call(h, 'GET', `/v1/files/${mine.id}/content`, undefined, OTHER_KEY)).status).toBe(404);
    expect((await call(h, 'DELETE', `/v1/files/${mine.id}`, undefined, OTHER_KEY)).status).toBe(404);
    const theirs = (await (await call(h, 'GET', '/v1/files', undefined, OTHER_KEY)).json()) as { data: unknown[] };
    expect(theirs.data).toEqual([]);
    expect((await call(h, 'GET', `/v1/files/${mine.id}`)).status).toBe(200);
  });
});

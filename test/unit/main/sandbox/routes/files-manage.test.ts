import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OTHER_KEY, useHarness } from '../harness';
import { call, refusal, uploadFile } from './files-form';

const h = useHarness();

const advance = (seconds: number) => call(h, 'POST', '/sandbox/clock/advance', { seconds });
const listedIds = async (): Promise<string[]> => ((await (await call(h, 'GET', '/v1/files')).json()) as { data: Array<{ id: string }> }).data.map((f) => f.id);

describe('sandbox/routes/files: one file', () => {
  describe('GET /v1/files/{id}', () => {
    it('returns the File and 404s for an unknown id', async () => {
      const file = await uploadFile(h, 'meta.txt', 'abc');
      expect(await (await call(h, 'GET', `/v1/files/${file.id}`)).json()).toEqual(file);
      expect(await refusal(await call(h, 'GET', '/v1/files/file_nope'))).toEqual({
        status: 404,
        error: 'File file_nope does not exist for your team. Check the id (files are stored per team).',
      });
    });
  });

  describe('DELETE /v1/files/{id}', () => {
    it('deletes: then 404 everywhere, not listed, bytes gone from disk', async () => {
      const file = await uploadFile(h, 'gone.txt', 'bye');
      expect(existsSync(join(h.sandbox.filesDir, file.id))).toBe(true);
      expect(await (await call(h, 'DELETE', `/v1/files/${file.id}`)).json()).toEqual({ id: file.id, object: 'file', deleted: true });
      const gone = { status: 404, error: `File ${file.id} was deleted.` };
      expect(await refusal(await call(h, 'GET', `/v1/files/${file.id}`))).toEqual(gone);
      expect(await refusal(await call(h, 'GET', `/v1/files/${file.id}/content`))).toEqual(gone);
      expect(await refusal(await call(h, 'PUT', `/v1/files/${file.id}`, { filename: 'x.txt' }))).toEqual(gone);
      expect(await refusal(await call(h, 'POST', `/v1/files/${file.id}/public-url`, {}))).toEqual(gone);
      expect(await refusal(await call(h, 'DELETE', `/v1/files/${file.id}`))).toEqual(gone);
      expect(await listedIds()).not.toContain(file.id);
      expect(existsSync(join(h.sandbox.filesDir, file.id))).toBe(false);
    });
  });

  describe('expiry on the sandbox clock', () => {
    it('keeps a file until expires_at, then 404s, unlists it and removes its bytes', async () => {
      const file = await uploadFile(h, 'soon.txt', 'tick', { expires_after: '3600' });
      const forever = await uploadFile(h, 'forever.txt', 'tock');
      expect((await advance(3599)).status).toBe(200);
      expect((await call(h, 'GET', `/v1/files/${file.id}`)).status).toBe(200);
      await advance(1);
      const expired = { status: 404, error: `File ${file.id} has expired (it passed its expires_at) and was removed.` };
      expect(await refusal(await call(h, 'GET', `/v1/files/${file.id}`))).toEqual(expired);
      expect(await refusal(await call(h, 'GET', `/v1/files/${file.id}/content`))).toEqual(expired);
      expect(await listedIds()).toContain(forever.id);
      expect(await listedIds()).not.toContain(file.id);
      expect(existsSync(join(h.sandbox.filesDir, file.id))).toBe(false);
    });
  });

  describe('PUT /v1/files/{id}', () => {
    it('renames and sets or clears the expiry, answering the File', async () => {
      const file = await uploadFile(h, 'draft.txt', 'v1');
      const renamed = (await (await call(h, 'PUT', `/v1/files/${file.id}`, { filename: 'final.txt', expires_after: 7200 })).json()) as Record<string, number>;
      const now = ((await (await call(h, 'GET', '/sandbox/clock')).json()) as { now: number }).now;
      expect(renamed).toEqual({ ...file, filename: 'final.txt', expires_at: now + 7200 });
      const cleared = await (await call(h, 'PUT', `/v1/files/${file.id}`, { expires_after: null })).json();
      expect(cleared).toEqual({ ...file, filename: 'final.txt', expires_at: null });
      const content = await call(h, 'GET', `/v1/files/${file.id}/content`);
      expect(content.headers.get('content-disposition')).toBe(`attachment; filename="final.txt"; filename*=UTF-8''final.txt`);
      expect(await content.text()).toBe('v1');
    });

    it.each([
      [{ filename: '' }, 400, 'filename must be a non-empty string.'],
      [{ filename: 42 }, 400, 'filename must be a non-empty string.'],
      [{ filename: 'a/b' }, 400, 'filename must be a plain file name without a path ("/" or "\\"); got "a/b".'],
      [{ expires_after: 10 }, 400, 'expires_after must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 10.'],
      [{ expires_after: '3600' }, 400, 'expires_after must be a whole number of seconds between 3600 and 2592000; got "3600".'],
      [{ bytes: 1 }, 422, 'Unknown field bytes: PUT /v1/files/{file_id} takes filename and expires_after.'],
      [[1], 422, 'PUT /v1/files/{file_id} takes a JSON object.'],
    ])('refuses %j', async (body, status, error) => {
      const file = await uploadFile(h, 'keep.txt', 'same');
      expect(await refusal(await call(h, 'PUT', `/v1/files/${file.id}`, body))).toEqual({ status, error });
      expect(await (await call(h, 'GET', `/v1/files/${file.id}`)).json()).toEqual(file);
    });
  });

  describe('public URLs', () => {
    it('creates a URL served without a key, shows it on the File, and revokes it', async () => {
      const file = await uploadFile(h, 'pic one.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const made = (await (await call(h, 'POST', `/v1/files/${file.id}/public-url`, {})).json()) as { public_url: string; public_url_expires_at: null };
      expect(made).toEqual({ public_url: expect.stringMatching(new RegExp(`^${h.sandbox.url}/public/[\\w-]+/pic%20one\\.png$`)), public_url_expires_at: null });
      const fetched = await fetch(made.public_url);
      expect(fetched.status).toBe(200);
      expect(fetched.headers.get('content-type')).toBe('application/octet-stream');
      expect(fetched.headers.get('accept-ranges')).toBe('bytes');
      // Sent without a type, it is application/octet-stream: not a passive type, so an attachment.
      expect(fetched.headers.get('content-disposition')).toBe(`attachment; filename="pic one.png"; filename*=UTF-8''pic%20one.png`);
      const part = await fetch(made.public_url, { headers: { range: 'bytes=1-2' } });
      expect(part.status).toBe(206);
      expect([...new Uint8Array(await part.arrayBuffer())]).toEqual([0x50, 0x4e]);
      expect([...new Uint8Array(await fetched.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
      expect(await (await call(h, 'GET', `/v1/files/${file.id}`)).json()).toEqual({ ...file, public_url: made.public_url, public_url_expires_at: null });

      const revoked = await call(h, 'DELETE', `/v1/files/${file.id}/public-url`);
      expect(await revoked.json()).toEqual(file);
      expect(await refusal(await fetch(made.public_url))).toEqual({ status: 404, error: 'This public file URL does not exist, was revoked or has expired.' });
      expect((await call(h, 'GET', `/v1/files/${file.id}/content`)).status).toBe(200);
    });

    it('expires a URL at its own expiry without touching the file, and dies with the file', async () => {
      const file = await uploadFile(h, 'clip.txt', 'short-lived link');
      const made = (await (await call(h, 'POST', `/v1/files/${file.id}/public-url`, { expires_after: 3600 })).json()) as { public_url: string; public_url_expires_at: number };
      const now = ((await (await call(h, 'GET', '/sandbox/clock')).json()) as { now: number }).now;
      expect(made.public_url_expires_at).toBe(now + 3600);
      expect(await (await fetch(made.public_url)).text()).toBe('short-lived link');
      await advance(3600);
      expect((await fetch(made.public_url)).status).toBe(404);
      expect((await (await call(h, 'GET', `/v1/files/${file.id}`)).json()) as object).toEqual(file);

      const again = (await (await call(h, 'POST', `/v1/files/${file.id}/public-url`)).json()) as { public_url: string };
      expect((await fetch(again.public_url)).status).toBe(200);
      await call(h, 'DELETE', `/v1/files/${file.id}`);
      expect((await fetch(again.public_url)).status).toBe(404);
    });

    it('refuses a bad expiry and other teams', async () => {
      const file = await uploadFile(h, 'x.txt', 'x');
      expect(await refusal(await call(h, 'POST', `/v1/files/${file.id}/public-url`, { expires_after: 1 }))).toEqual({
        status: 400,
        error: 'expires_after must be between 3600 (1 hour) and 2592000 (30 days) seconds; got 1.',
      });
      expect((await call(h, 'POST', `/v1/files/${file.id}/public-url`, {}, OTHER_KEY)).status).toBe(404);
    });
  });

  describe('GET /v1/files/{id}/content', () => {
    it('refuses formats the sandbox cannot produce', async () => {
      const file = await uploadFile(h, 'doc.txt', 'words');
      expect(await refusal(await call(h, 'GET', `/v1/files/${file.id}/content?format=text`))).toEqual({
        status: 400,
        error: 'format must be "original" in the sandbox (it does not extract text); got "text".',
      });
      expect(await (await call(h, 'GET', `/v1/files/${file.id}/content?format=original`)).text()).toBe('words');
    });

    it('answers a byte range with 206 (for seeking and resumed downloads) and refuses one past the end', async () => {
      const file = await uploadFile(h, 'digits.txt', '0123456789');
      const get = (range: string) => fetch(`${h.sandbox.url}/v1/files/${file.id}/content`, { headers: { authorization: 'Bearer sk-test-team-a-0001', range } });
      const read = async (range: string) => {
        const res = await get(range);
        return { status: res.status, range: res.headers.get('content-range'), length: res.headers.get('content-length'), text: await res.text() };
      };
      expect(await read('bytes=2-4')).toEqual({ status: 206, range: 'bytes 2-4/10', length: '3', text: '234' });
      expect(await read('bytes=7-')).toEqual({ status: 206, range: 'bytes 7-9/10', length: '3', text: '789' });
      expect(await read('bytes=-2')).toEqual({ status: 206, range: 'bytes 8-9/10', length: '2', text: '89' });
      expect(await read('bytes=8-100')).toEqual({ status: 206, range: 'bytes 8-9/10', length: '2', text: '89' });
      expect(await read('bytes=0-1,4-5')).toEqual({ status: 200, range: null, length: '10', text: '0123456789' });
      const past = await get('bytes=10-12');
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe('bytes */10');
      expect(((await past.json()) as { error: string }).error).toBe("The range bytes=10-12 is outside the file's 10 bytes.");
    });

    it('honours fault injection like every route', async () => {
      const file = await uploadFile(h, 'f.txt', 'f');
      const res = await fetch(`${h.sandbox.url}/v1/files/${file.id}/content`, {
        headers: { authorization: `Bearer sk-test-team-a-0001`, 'x-sandbox-fault': 'status=429;retry-after=2' },
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('2');
    });
  });
});

import type { IncomingMessage } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { FileStore } from '../../../../../main/sandbox/files/store';
import { encodePng } from '../../../../../main/sandbox/media/image-codec';
import { ownUrlMatcher, resolveInput, UploadedPart, type InputContext } from '../../../../../main/sandbox/media/input';
import { IMAGE_INPUT_MIME_TYPES } from '../../../../../shared/wire/images';

const files = new FileStore();
afterAll(() => files.close());
const PNG = Buffer.from(encodePng(new Uint8Array(16).fill(200), 2, 2));
const spec = { field: 'images[3]', accept: IMAGE_INPUT_MIME_TYPES, maxBytes: 1000 };

function ctx(fetchImpl: (url: URL) => Promise<Response>, extra: Partial<InputContext> = {}): InputContext {
  return { files, team: 'team-a', nowMs: Date.now(), isOwnUrl: () => false, fetch: fetchImpl as unknown as typeof fetch, ...extra };
}
const refusal = (p: Promise<unknown>) => p.then(() => 'resolved', (e: Error & { status?: number }) => `${e.status} ${e.message}`);

describe('sandbox/media/input', () => {
  it('resolves a fetched URL and says where the bytes came from', async () => {
    const got = await resolveInput({ url: 'https://example.com/a.png' }, spec, ctx(async () => new Response(PNG)));
    expect([got.mime, got.source, Buffer.from(got.bytes).equals(PNG)]).toEqual(['image/png', 'remote-url', true]);
  });

  it('gives up on a slow host, a large declared length and a large streamed body, naming the field', async () => {
    const slow = ctx(() => Promise.reject(Object.assign(new Error('aborted'), { name: 'TimeoutError' })), { fetchTimeoutMs: 2000 });
    expect(await refusal(resolveInput({ url: 'https://slow.example/a.png' }, spec, slow))).toBe('400 images[3].url could not be fetched from slow.example: no answer within 2 s');
    const declared = ctx(async () => new Response(PNG, { headers: { 'content-length': '5000' } }));
    expect(await refusal(resolveInput({ url: 'https://big.example/a.png' }, spec, declared))).toBe('400 images[3].url is 4.9 KiB; inputs may be at most 1000 bytes');
    const streamed = ctx(async () => new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(600)) })));
    expect(await refusal(resolveInput({ url: 'https://big.example/a.png' }, spec, streamed))).toBe('400 images[3].url is over 1000 bytes, the most an input may be');
  });

  it('reads percent-encoded data URLs and uploaded parts', async () => {
    const pct = `data:image/png,${encodeURIComponent(PNG.toString('latin1'))}`;
    expect((await resolveInput({ url: pct }, spec, ctx(async () => new Response()))).source).toBe('data-url');
    const part = await resolveInput(new UploadedPart(PNG, 'a.png', 'image/png'), spec, ctx(async () => new Response()));
    expect([part.source, part.mime]).toEqual(['upload', 'image/png']);
    expect(await refusal(resolveInput(new UploadedPart(Buffer.alloc(0), 'a.png', 'image/png'), spec, ctx(async () => new Response())))).toBe(
      '400 images[3] is empty (0 bytes); it must be a JPEG, PNG or WebP file',
    );
  });

  it('accepts other kinds and type names for video inputs', async () => {
    const mp4 = Buffer.from('\0\0\0\x18ftypisom\0\0\0\0isomavc1');
    const video = { field: 'video', accept: ['video/mp4'], maxBytes: 1000, types: ['video_url'] };
    const got = await resolveInput({ url: `data:video/mp4;base64,${mp4.toString('base64')}`, type: 'video_url' }, video, ctx(async () => new Response()));
    expect(got.mime).toBe('video/mp4');
    expect(await refusal(resolveInput({ url: `data:,${PNG.toString('base64')}`.replace('data:,', 'data:;base64,') }, video, ctx(async () => new Response())))).toBe(
      '400 video.url must be a MP4 file; its bytes are image/png',
    );
  });

  it("knows the sandbox's own URLs: any loopback name with the sandbox's port (another Host is refused before routing)", () => {
    const req = { headers: { host: 'localhost:4010' }, socket: { localPort: 4010 } } as unknown as IncomingMessage;
    const own = ownUrlMatcher(req);
    expect(own(new URL('http://sandbox.test:4010/media/images/a.jpg'))).toBe(false);
    expect(own(new URL('http://127.0.0.1:4010/public/t/a.png'))).toBe(true);
    expect(own(new URL('http://127.0.0.2:4010/public/t/a.png'))).toBe(true);
    expect(own(new URL('http://[::1]:4010/x'))).toBe(true);
    expect(own(new URL('http://localhost:4011/x'))).toBe(false);
    expect(own(new URL('https://example.com/x'))).toBe(false);
  });
});

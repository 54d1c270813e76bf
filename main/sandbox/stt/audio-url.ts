/**
 * The `url` form field of `POST /v1/stt`. The sandbox is offline and must not become a way to
 * reach other hosts, so it fetches only:
 * - its own public file URLs (`/public/<token>/<name>`, from `POST /v1/files/{id}/public-url`),
 *   read in-process (an expired or revoked one says so);
 * - other http(s) URLs on a loopback host (`localhost`, `127.x.x.x`, `[::1]`), such as a test's
 *   own file server, with a 10 s timeout and the same size limit as an upload.
 * Anything else is a 400 saying so.
 */
import { readFile } from 'node:fs/promises';
import { SandboxError } from '../errors';
import type { FileStore } from '../files/store';
import { isLoopbackHostname } from '../host';

export interface UrlContext {
  files: FileStore;
  nowMs: number;
  isOwnUrl: (url: URL) => boolean;
  maxBytes: number;
  fetchTimeoutMs?: number;
}

const bad = (message: string) => new SandboxError(400, message);

export async function fetchAudioUrl(text: string, ctx: UrlContext): Promise<Uint8Array> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad(`url must be an http(s) URL; got ${JSON.stringify(text.slice(0, 80))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`url must be an http(s) URL; ${url.protocol} URLs are not fetched.`);
  if (!isLoopbackHostname(url.hostname)) {
    throw bad(`url ${url.host} is not fetched: the sandbox reads audio only from its own public file URLs and loopback hosts (localhost, 127.0.0.1, [::1]). Upload the audio as the file part instead.`);
  }
  if (ctx.isOwnUrl(url)) {
    const pub = /^\/public\/([^/]+)\/[^/]+$/.exec(url.pathname);
    if (!pub) throw bad('url points at this sandbox but not at a public file URL (/public/<token>/<name>).');
    const record = ctx.files.byPublicToken(decodeURIComponent(pub[1]), ctx.nowMs);
    if (!record) throw bad('url is a public file URL of this sandbox that does not exist, was revoked or has expired.');
    if (record.bytes > ctx.maxBytes) throw new SandboxError(413, `The file at url is ${record.bytes} bytes, over the sandbox's ${ctx.maxBytes}-byte limit for audio.`);
    return readFile(ctx.files.pathOf(record.id)).catch(() => {
      throw bad('url is a public file URL of this sandbox whose file is gone.');
    });
  }
  const timeoutMs = ctx.fetchTimeoutMs ?? 10_000;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (err) {
    const why = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : ((err as { cause?: Error }).cause?.message ?? (err as Error).message);
    throw bad(`url could not be fetched from ${url.host}: ${why}.`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw bad(`url could not be fetched: ${url.host} answered HTTP ${res.status}.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body ?? []) {
    total += chunk.byteLength;
    if (total > ctx.maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new SandboxError(413, `The file at url is over the sandbox's ${ctx.maxBytes}-byte limit for audio.`);
    }
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Audio the app did not have the bytes of, fetched so it can be kept: a Files id's content
 * (`GET /v1/files/{id}/content`, through the connection's client and key) or a URL the user gave
 * (fetched with a keyless client: the connection's key never goes to a third party). Both are
 * streamed to a file (download.ts: never half-written) and refused past `maxBytes`, before or
 * while they arrive, with a sentence saying the limit. Used by Transcription so that History plays
 * what was transcribed by id or URL as it plays an uploaded file.
 */
import { formatBytes } from '../../shared/byte-size';
import { ApiClient, type ApiResult } from './client';
import { downloadToFile, type DownloadedFile, type OpenFileSink } from './download';
import type { ApiError } from './errors';
import { filePath } from './files';
import { SecretScrubber } from './secret-scrubber';

export interface AudioDownloadOptions {
  /** Largest audio kept (bytes). */
  maxBytes: number;
  signal?: AbortSignal;
  openSink?: OpenFileSink;
  /** Tests: the client used for a URL (default: a fresh one with no key). */
  clientFor?: (origin: string) => ApiClient;
  /** What is returned (messages that quote the URL) has this key masked. */
  scrubber?: SecretScrubber;
}

/** What was saved, with the type the server gave (null when it gave none). */
export interface DownloadedAudio extends DownloadedFile {
  contentType: string | null;
}

function failure(url: string, message: string, code: string | null = null): ApiResult<DownloadedAudio> {
  const error: ApiError = { kind: 'protocol', status: null, code, message, requestId: null };
  return { ok: false, error, meta: null, captured: { method: 'GET', url: url.slice(0, 200), headers: {}, body: null }, retries: 0, totalMs: 0 };
}

/** GET `path` on `client` into `destFile`, refused past `opts.maxBytes` (`what` names it in the message). */
async function capped(client: ApiClient, path: string, destFile: string, what: string, opts: AudioDownloadOptions): Promise<ApiResult<DownloadedAudio>> {
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  if (opts.signal?.aborted) limit.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let tooLarge: number | null = null;
  try {
    const result = await downloadToFile(client, path, destFile, {
      signal: limit.signal,
      openSink: opts.openSink,
      onProgress: (received, total) => {
        if ((total ?? 0) > opts.maxBytes || received > opts.maxBytes) {
          tooLarge = Math.max(total ?? 0, received);
          limit.abort();
        }
      },
    });
    if (!result.ok && tooLarge !== null) {
      const message = `${what} is larger than the app keeps (${formatBytes(tooLarge)}, the limit is ${formatBytes(opts.maxBytes)}), so it is not kept for playback.`;
      return { ...result, error: { kind: 'protocol', status: null, code: 'too_large', message, requestId: null } };
    }
    if (!result.ok) return result;
    const type = result.meta.headers['content-type'];
    const contentType = typeof type === 'string' ? type.split(';')[0]!.trim().toLowerCase() || null : null;
    return { ...result, value: { ...result.value, contentType } };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The content of Files id `id`, saved at `destFile`. */
export async function downloadFileAudio(client: ApiClient, id: string, destFile: string, opts: AudioDownloadOptions): Promise<ApiResult<DownloadedAudio>> {
  return capped(client, `${filePath(id)}/content`, destFile, `File ${id}`, opts);
}

/** The audio at `url` (exactly as given, no key sent), saved at `destFile`. */
export async function downloadAudioUrl(url: string, destFile: string, opts: AudioDownloadOptions): Promise<ApiResult<DownloadedAudio>> {
  const scrubber = opts.scrubber ?? SecretScrubber.NONE;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return scrubber.value(failure(url, `The audio's URL is not an http(s) address: ${url.slice(0, 120)}`));
  const owned = !opts.clientFor;
  const client = opts.clientFor ? opts.clientFor(parsed.origin) : new ApiClient({ baseUrl: parsed.origin, apiKey: null });
  try {
    return scrubber.value(await capped(client, `${parsed.pathname}${parsed.search}`, destFile, 'The audio at that URL', opts));
  } finally {
    if (owned) await client.dispose();
  }
}

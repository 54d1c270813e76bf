/**
 * The Images family (spec "Images", "Image result"; wire-notes §8.1): `POST /v1/images/generations`
 * and `/v1/images/edits` (JSON bodies), and the download of a produced image from its `url`. The
 * result URL is the service's CDN (or the sandbox's own link), not the API: the connection's key
 * is never sent there. Every call gives a value, never throws for a failed request.
 */
import { formatBytes } from '../../shared/byte-size';
import type { ImageEditRequest, ImageGenerationRequest, ImageResult } from '../../shared/wire/images';
import { ApiClient, type ApiResult, type RequestOptions } from './client';
import type { ApiError } from './errors';
import { SecretScrubber } from './secret-scrubber';

export const IMAGE_PATHS = { generate: '/v1/images/generations', edit: '/v1/images/edits' } as const;
export type ImageCallKind = keyof typeof IMAGE_PATHS;

export interface ImageCallOptions {
  signal?: AbortSignal;
  /** The user's custom headers. */
  headers?: Record<string, string>;
  onRetry?: RequestOptions['onRetry'];
}

/**
 * Each answered image's `url` exactly as the service gave it (null where it gave none): what the
 * app downloads. Never recorded or shown; the answer's own copy has the key masked.
 */
export type ImageUrls = ReadonlyArray<string | null>;

/**
 * Sends a generation or an edit. A 2xx whose body has no `data` array is a `protocol` error
 * naming what came, so the service can never hand the app something it would half-read.
 */
export async function createImages(
  client: ApiClient,
  kind: ImageCallKind,
  body: ImageGenerationRequest | ImageEditRequest,
  opts: ImageCallOptions = {},
): Promise<ApiResult<ImageResult> & { urls?: ImageUrls }> {
  const { result, unscrubbed } = await client.jsonWithUnscrubbed<ImageResult>({ method: 'POST', path: IMAGE_PATHS[kind], body, ...opts });
  if (!result.ok) return result;
  const data = (result.value as Partial<ImageResult> | null)?.data;
  if (!Array.isArray(data) || data.some((d) => !d || typeof d !== 'object')) {
    const shown = JSON.stringify(result.value ?? null).slice(0, 200);
    const error: ApiError = { kind: 'protocol', status: result.meta.status, code: null, message: `The service answered without a list of images (data): ${shown}`, requestId: result.meta.requestId, body: result.value };
    return { ...result, ok: false, error };
  }
  const urls = (unscrubbed?.data ?? []).map((d) => (typeof d.url === 'string' ? d.url : null));
  return { ...result, urls };
}

export interface ImageDownloadOptions {
  signal?: AbortSignal;
  /** Largest image accepted (bytes); a bigger one is refused while it arrives and nothing is kept. */
  maxBytes: number;
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  /** Tests: the client used for the URL's origin (default: a fresh one with no key). */
  clientFor?: (origin: string) => ApiClient;
  /**
   * The connection's scrubber: `url` is fetched as given, but what is returned (messages that
   * quote it, the captured request) has the key masked, as everything recorded or shown.
   */
  scrubber?: SecretScrubber;
}

/** A downloaded image: all of its bytes (a download that broke gives an error, never a part). */
export interface DownloadedImage {
  bytes: Buffer;
  /** The answer's Content-Type (the caller trusts magic bytes over it). */
  contentType: string | null;
}

function sizeSoFar(received: number, total: number | null): string {
  return total === null ? formatBytes(received) : `${formatBytes(received)} of ${formatBytes(total)}`;
}

function failure(url: string, message: string, code: string | null = null): ApiResult<DownloadedImage> {
  const error: ApiError = { kind: 'protocol', status: null, code, message, requestId: null };
  return { ok: false, error, meta: null, captured: { method: 'GET', url: url.slice(0, 200), headers: {}, body: null }, retries: 0, totalMs: 0 };
}

/**
 * GETs the image at `url` (exactly as given) into memory. Images are small (a 2k PNG is a few MB),
 * so they are held whole and only returned once every byte arrived (the Content-Length, when
 * sent, is checked). What is returned has `opts.scrubber`'s key masked (the bytes pass as they are).
 */
export async function downloadImage(url: string, opts: ImageDownloadOptions): Promise<ApiResult<DownloadedImage>> {
  return (opts.scrubber ?? SecretScrubber.NONE).value(await fetchImage(url, opts));
}

async function fetchImage(url: string, opts: ImageDownloadOptions): Promise<ApiResult<DownloadedImage>> {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return failure(url, `The image's URL is not an http(s) address: ${url.slice(0, 120)}`);
  const owned = !opts.clientFor;
  const client = opts.clientFor ? opts.clientFor(parsed.origin) : new ApiClient({ baseUrl: parsed.origin, apiKey: null });
  const limit = new AbortController();
  const onAbort = (): void => limit.abort();
  if (opts.signal?.aborted) limit.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let received = 0;
  let total: number | null = null;
  let tooLarge = false;
  try {
    const outcome = await client.bytes(
      { method: 'GET', path: `${parsed.pathname}${parsed.search}`, signal: limit.signal },
      {
        onOpen(meta) {
          const length = Number(meta.headers['content-length']);
          total = meta.headers['content-length'] !== undefined && Number.isFinite(length) ? length : null;
        },
        onChunk(chunk) {
          received += chunk.byteLength;
          if (received > opts.maxBytes || (total ?? 0) > opts.maxBytes) {
            tooLarge = true;
            return false;
          }
          chunks.push(chunk);
          opts.onProgress?.(received, total);
          return true;
        },
      },
    );
    const base = { captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs };
    if (tooLarge) {
      return { ...failure(url, `The image is larger than the app accepts (over ${formatBytes(opts.maxBytes)}); nothing was kept.`, 'too_large'), ...base };
    }
    if (!outcome.ok || !outcome.meta) {
      let error: ApiError = outcome.error ?? { kind: 'protocol', status: null, code: null, message: 'The image download ended without an answer.', requestId: null };
      // A body that broke off: the client's words would say partial output is kept; here nothing is.
      if (outcome.meta && outcome.meta.status < 300 && error.kind !== 'cancelled') {
        const cause = error.message.replace(/\s*Partial output is kept\.?$/, '').replace(/\.$/, '');
        error = { ...error, message: `The image download broke after ${sizeSoFar(received, total)} (${cause}); nothing of it was kept.` };
      }
      return { ok: false, error, meta: outcome.meta, ...base };
    }
    if (total !== null && received !== total) {
      const error: ApiError = { kind: 'stream_incomplete', status: outcome.meta.status, code: null, message: `The image download broke after ${sizeSoFar(received, total)}; nothing of it was kept.`, requestId: outcome.meta.requestId };
      return { ok: false, error, meta: outcome.meta, ...base };
    }
    const contentType = outcome.meta.headers['content-type'] ?? null;
    return { ok: true, value: { bytes: Buffer.concat(chunks), contentType }, meta: outcome.meta, ...base };
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (owned) await client.dispose();
  }
}

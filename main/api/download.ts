/**
 * Downloads streamed to a file. Bytes go to a temporary file beside the destination, which is
 * fsynced and renamed over it only when the whole body arrived: on any failure (full disk,
 * dropped connection, cancel) the temporary file is removed and the destination is untouched, so
 * nothing half-written is ever left. Memory stays flat: each chunk is written before the next is read.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { formatBytes } from '../../shared/byte-size';
import type { ApiClient, ApiResult, RequestOptions, ResponseMeta } from './client';
import { cancelledError, type ApiError } from './errors';

/** Where the bytes are written. The default writes a real file; tests inject failures (ENOSPC). */
export interface FileSink {
  write(chunk: Uint8Array): Promise<void>;
  /** Flushes to the disk (fsync) before the rename. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type OpenFileSink = (path: string) => Promise<FileSink>;

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Bytes received so far, and the total from Content-Length (null when the service did not say). */
  onProgress?: (receivedBytes: number, totalBytes: number | null) => void;
  query?: RequestOptions['query'];
  onRetry?: RequestOptions['onRetry'];
  /** Opens the file the bytes are written to; defaults to a real file. */
  openSink?: OpenFileSink;
}

/** What was saved. */
export interface DownloadedFile {
  path: string;
  bytes: number;
}

/** A real file, created exclusively (a leftover temp of another download is never reused). */
export const openRealFile: OpenFileSink = async (path) => {
  const handle = await open(path, 'wx');
  return {
    async write(chunk) {
      let offset = 0;
      while (offset < chunk.byteLength) {
        const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
        offset += bytesWritten;
      }
    },
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
};

function writeError(dest: string, e: unknown): ApiError {
  const code = (e as { code?: unknown } | null)?.code;
  const c = typeof code === 'string' ? code : null;
  let message: string;
  if (c === 'ENOSPC' || c === 'EDQUOT') message = `The disk is full: ${dest} was not saved. Free some space and try again.`;
  else if (c === 'EACCES' || c === 'EPERM' || c === 'EROFS') message = `Could not write to ${dirname(dest)} (permission denied): ${dest} was not saved.`;
  else if (c === 'ENOENT') message = `The folder ${dirname(dest)} does not exist: ${dest} was not saved.`;
  else message = `Could not write ${dest} (${e instanceof Error ? e.message : String(e)}); nothing was saved.`;
  return { kind: 'file', status: null, code: c, message, requestId: null };
}

function sizeSoFar(received: number, total: number | null): string {
  return total === null ? formatBytes(received) : `${formatBytes(received)} of ${formatBytes(total)}`;
}

/**
 * GETs `path` and saves the body at `destFile` (replacing it only on success). Never throws for
 * a failed download: the result's error says what happened and that nothing was saved.
 */
export async function downloadToFile(client: ApiClient, path: string, destFile: string, opts: DownloadOptions = {}): Promise<ApiResult<DownloadedFile>> {
  const temp = join(dirname(destFile), `.${basename(destFile)}.${randomBytes(6).toString('hex')}.part`);
  const openSink = opts.openSink ?? openRealFile;
  // Set from the sink's callbacks (an object, so the checks after the await see the writes).
  const st: { sink: FileSink | null; failure: ApiError | null; received: number; total: number | null; opened: boolean } = {
    sink: null,
    failure: null,
    received: 0,
    total: null,
    opened: false,
  };

  const outcome = await client.bytes(
    { method: 'GET', path, query: opts.query, signal: opts.signal, onRetry: opts.onRetry },
    {
      onOpen(m) {
        st.opened = true;
        const length = Number(m.headers['content-length']);
        st.total = m.headers['content-length'] !== undefined && Number.isFinite(length) ? length : null;
      },
      async onChunk(chunk) {
        try {
          st.sink ??= await openSink(temp);
          await st.sink.write(chunk);
        } catch (e) {
          st.failure = writeError(destFile, e);
          return false;
        }
        st.received += chunk.byteLength;
        opts.onProgress?.(st.received, st.total);
        return true;
      },
    },
  );

  const base = { captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs };
  const fail = async (error: ApiError): Promise<ApiResult<DownloadedFile>> => {
    await st.sink?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    return { ok: false, error, meta: outcome.meta, ...base };
  };

  const { received, total } = st;
  if (st.failure) return fail(st.failure);
  if (!outcome.ok && outcome.error) {
    const e = outcome.error;
    if (e.kind === 'cancelled') return fail({ ...cancelledError(e.requestId), message: `Cancelled: ${destFile} was not saved.` });
    if (!st.opened || e.kind === 'http') return fail(e);
    // The body had started: say how far it got and that nothing was kept.
    const message =
      e.kind === 'timeout'
        ? `The download stalled after ${sizeSoFar(received, total)}; nothing was saved. Try again.`
        : `The connection dropped after ${sizeSoFar(received, total)}; nothing was saved. Try again.`;
    return fail({ ...e, message });
  }
  if (total !== null && received !== total) {
    return fail({
      kind: 'network',
      status: null,
      code: null,
      message: `The connection dropped after ${sizeSoFar(received, total)}; nothing was saved. Try again.`,
      requestId: outcome.meta?.requestId ?? null,
    });
  }
  try {
    // An empty body still saves an (empty) file.
    const sink = (st.sink ??= await openSink(temp));
    await sink.sync();
    st.sink = null;
    await sink.close();
    await rename(temp, destFile);
  } catch (e) {
    return fail(writeError(destFile, e));
  }
  return { ok: true, value: { path: destFile, bytes: received }, meta: outcome.meta as ResponseMeta, ...base };
}

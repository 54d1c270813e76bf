/**
 * Request bodies that are streams. A StreamBody is a recipe, not a stream: `open()` makes a fresh
 * source for each attempt, so a retry sends the same bytes again without ever holding them in
 * memory. Each attempt counts the bytes handed to the socket, which gives upload progress and
 * tells the retry loop whether anything left (a drop after bytes were sent is not retried).
 */
import type { ApiError } from './errors';
import { formatBytes } from '../../shared/byte-size';

/** A body streamed from a source that can be opened again for every attempt. */
export interface StreamBody {
  kind: 'stream';
  /** A new source of the same bytes each call. Closed by the client when it stops reading. */
  open: () => NodeJS.ReadableStream | AsyncIterable<Uint8Array>;
  /** Exact byte count: sent as Content-Length (chunked encoding otherwise). */
  length?: number;
  contentType: string;
  /** What the inspector records instead of the bytes (JSON). */
  description?: unknown;
  /** What the bytes are, for messages: e.g. the path of the file being sent. */
  label?: string;
  /** Bytes handed to the socket in the current attempt (from 0 again on a retry), and the total if known. */
  onProgress?: (sentBytes: number, totalBytes: number | null) => void;
}

/** True for a StreamBody (a JSON body cannot hold a function, so the test is unambiguous). */
export function isStreamBody(body: unknown): body is StreamBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { kind?: unknown }).kind === 'stream' &&
    typeof (body as { open?: unknown }).open === 'function'
  );
}

/** What the inspector keeps for a stream body: its description, or its type and size. */
export function capturedStreamBody(body: StreamBody): unknown {
  return body.description ?? { stream: true, contentType: body.contentType, bytes: body.length ?? null };
}

/** An error the body's source threw (the file vanished, a read failed): the client did nothing wrong. */
export class BodySourceError extends Error {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
    this.name = 'BodySourceError';
  }
}

/** One attempt's view of a StreamBody: the iterable to give undici and the bytes it took so far. */
export interface BodyAttempt {
  iterable: AsyncIterable<Uint8Array>;
  sent(): number;
}

/** Opens `body` for one attempt. The source is closed when undici stops reading (done, error or abort). */
export function openAttempt(body: StreamBody): BodyAttempt {
  let sent = 0;
  const total = body.length ?? null;
  async function* counted(): AsyncGenerator<Uint8Array> {
    let source: AsyncIterable<Uint8Array>;
    try {
      source = body.open() as AsyncIterable<Uint8Array>;
    } catch (e) {
      throw new BodySourceError(e);
    }
    const iterator = source[Symbol.asyncIterator]();
    try {
      for (;;) {
        let step: IteratorResult<Uint8Array>;
        try {
          step = await iterator.next();
        } catch (e) {
          throw new BodySourceError(e);
        }
        if (step.done) return;
        const chunk = typeof step.value === 'string' ? Buffer.from(step.value) : step.value;
        sent += chunk.byteLength;
        yield chunk;
        // Reached when undici asks for the next chunk, i.e. this one was written.
        body.onProgress?.(sent, total);
      }
    } finally {
      // Closes a file stream (and its descriptor) when undici stops early.
      await iterator.return?.();
    }
  }
  return { iterable: counted(), sent: () => sent };
}

function findSourceError(e: unknown): BodySourceError | null {
  let cur: unknown = e;
  for (let depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof BodySourceError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * The error for a stream body's attempt that threw after it started sending (or whose source
 * failed), or null when the generic network mapping applies (nothing was sent yet: retryable).
 */
export function streamBodyError(e: unknown, body: StreamBody, sent: number, host: string): ApiError | null {
  const what = body.label ?? 'the request body';
  const base = { status: null, requestId: null };
  const source = findSourceError(e);
  if (source) {
    const code = errorCode(source.original);
    const cause = code === 'ENOENT' ? 'it no longer exists' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : source.message;
    return { ...base, kind: 'file', code: code || null, message: `Could not read ${what} while sending it (${cause}). Nothing was uploaded.` };
  }
  if (errorCode(e) === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') {
    return {
      ...base,
      kind: 'file',
      code: 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
      message: `${what} changed size while it was being sent (expected ${formatBytes(body.length ?? 0)}). Nothing was uploaded; try again.`,
    };
  }
  if (sent === 0) return null;
  if (body.length !== undefined && sent >= body.length) {
    // Everything left; the answer did not come back, so whether the service kept it is unknown.
    return {
      ...base,
      kind: 'network',
      code: errorCode(e) || null,
      message: `The connection to ${host} dropped after all of ${what} was sent, before the service answered; it may or may not have been stored. Check before trying again.`,
    };
  }
  const of = body.length === undefined ? '' : ` of ${formatBytes(body.length)}`;
  return {
    ...base,
    kind: 'network',
    code: errorCode(e) || null,
    message: `The connection to ${host} dropped while sending ${what}, after ${formatBytes(sent)}${of}; the upload did not finish. Try again.`,
  };
}

/**
 * Browser mode's upload route, `POST /stage`: the page sends a file's raw bytes (XMLHttpRequest,
 * so it can show upload progress), main stages them through UserFiles and answers the FileRef.
 * Guards beyond the server's Host check: the page token as `Authorization: Bearer <token>`, our
 * Origin when the browser names one, and a size limit (413). A client that goes away mid-upload
 * aborts the staging, which removes the temporary file. There is no limit on the total time (a
 * 1 GiB file over 2 MB/s takes 9 minutes): a body that stalls — less than `stall.minBytes` in any
 * `stall.timeoutMs` while we wait for the client rather than the disk — is stopped with 408, which
 * also ends a body that trickles a byte now and then to hold the socket. `DELETE /stage/<id>` is
 * the page's Cancel for the uploads it sent under that id (stage-uploads.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import { STAGE_NAME_HEADER, STAGE_UPLOAD_ID_HEADER } from '../../shared/contract/user-files';
import { StagingFull, type UserFiles } from '../services/user-files';
import { UPLOAD_ID_PATTERN, type StageUploads } from './stage-uploads';
import { tokenFromAuthorization, tokensMatch } from './token';

/** Largest upload accepted by default: 4 GiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

/** When a body counts as stalled: less than `minBytes` arrived in `timeoutMs` of waiting for the client. */
export interface StallLimit {
  timeoutMs: number;
  minBytes: number;
}

/** 16 KiB in 30 s (about 550 bytes a second): any working link sends far more; a stuck one, or a trickle, less. */
export const DEFAULT_STAGE_STALL: StallLimit = { timeoutMs: 30_000, minBytes: 16 * 1024 };

export interface StagingRouteContext {
  userFiles: Pick<UserFiles, 'stage' | 'release'>;
  /** Running and finished uploads by the page's upload id, for `DELETE /stage/<id>`. */
  uploads: StageUploads;
  token: string;
  allowedOrigins: ReadonlySet<string>;
  maxBytes: number;
  stall: StallLimit;
  /** Headers every answer carries (the server's security headers). */
  headers: Record<string, string>;
  log: (line: string) => void;
}

class TooLarge extends Error {}

function send(res: ServerResponse, ctx: StagingRouteContext, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...ctx.headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...extra });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, ctx: StagingRouteContext, status: number, error: WorkbenchError, close = false): void {
  // Refusing before reading the body: close the connection rather than drain gigabytes.
  send(res, ctx, status, { error }, close ? { Connection: 'close' } : {});
}

function sizeText(bytes: number): string {
  return bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/**
 * Calls `onStall` when a window of `limit.timeoutMs` ends with less than `limit.minBytes` received,
 * unless the body was held back by us at that moment (the disk is slower than the link) or this
 * process was too busy to read (the check itself ran late): neither is the client's stall.
 */
function watchForStall(limit: StallLimit, received: () => number, heldBack: () => boolean, onStall: () => void): () => void {
  let mark = received();
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const bytes = received();
    const stalled = bytes - mark < limit.minBytes && !heldBack() && now - last < limit.timeoutMs * 1.5;
    mark = bytes;
    last = now;
    if (stalled) onStall();
  }, limit.timeoutMs);
  return () => clearInterval(timer);
}

function fileName(req: IncomingMessage): string | null {
  const raw = req.headers[STAGE_NAME_HEADER.toLowerCase()];
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 1024) return null;
  try {
    const name = decodeURIComponent(raw);
    return name.length > 0 ? name : null;
  } catch {
    return null;
  }
}

/** The token and Origin checks every staging request passes; false when it was refused. */
function admitted(req: IncomingMessage, res: ServerResponse, ctx: StagingRouteContext): boolean {
  if (!tokensMatch(ctx.token, tokenFromAuthorization(req.headers.authorization))) {
    refuse(res, ctx, 401, { code: 'invalid_input', message: 'Unauthorized: the access token is missing or wrong.' }, true);
    return false;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !ctx.allowedOrigins.has(origin)) {
    refuse(res, ctx, 403, { code: 'invalid_input', message: 'Forbidden: unexpected Origin.' }, true);
    return false;
  }
  return true;
}

/**
 * `DELETE /stage/<upload id>`: the page's Cancel. Stops the id's running uploads (their partial
 * files are removed before the answer) and releases what it staged; an unknown id is no error.
 */
export async function handleStageCancel(req: IncomingMessage, res: ServerResponse, ctx: StagingRouteContext, id: string): Promise<void> {
  if (req.method !== 'DELETE') return refuse(res, ctx, 405, { code: 'invalid_input', message: 'Uploads are cancelled with DELETE.' }, true);
  if (!admitted(req, res, ctx)) return;
  if (!UPLOAD_ID_PATTERN.test(id)) return refuse(res, ctx, 400, { code: 'invalid_input', message: `An upload id is 16 to 64 of A-Z, a-z, 0-9, _ and -.` });
  const outcome = await ctx.uploads.cancel(id);
  const released = outcome.refs.filter((ref) => ctx.userFiles.release(ref)).length;
  if (outcome.aborted || released) ctx.log(`[stage] cancelled by the page: ${outcome.aborted} running, ${released} staged removed`);
  send(res, ctx, 200, { aborted: outcome.aborted, released });
}

/** Handles one `POST /stage` request (the server has already checked its Host header). */
export async function handleStage(req: IncomingMessage, res: ServerResponse, ctx: StagingRouteContext): Promise<void> {
  if (req.method !== 'POST') return refuse(res, ctx, 405, { code: 'invalid_input', message: 'Uploads are POSTed.' });
  if (!admitted(req, res, ctx)) return;
  const uploadId = req.headers[STAGE_UPLOAD_ID_HEADER.toLowerCase()];
  if (uploadId !== undefined && (typeof uploadId !== 'string' || !UPLOAD_ID_PATTERN.test(uploadId))) {
    return refuse(res, ctx, 400, { code: 'invalid_input', message: `The ${STAGE_UPLOAD_ID_HEADER} header must be 16 to 64 of A-Z, a-z, 0-9, _ and -.` }, true);
  }
  const name = fileName(req);
  if (!name) {
    return refuse(res, ctx, 400, { code: 'invalid_input', message: `The ${STAGE_NAME_HEADER} header must hold the percent-encoded file name.` }, true);
  }
  const limitText = `${(ctx.maxBytes / 1024 ** 3).toFixed(ctx.maxBytes % 1024 ** 3 === 0 ? 0 : 2)} GiB`;
  const tooLarge: WorkbenchError = { code: 'invalid_input', message: `"${name}" is larger than the ${limitText} upload limit.` };
  const lengthHeader = req.headers['content-length'];
  const expected = lengthHeader === undefined ? undefined : Number(lengthHeader);
  if (expected !== undefined && expected > ctx.maxBytes) return refuse(res, ctx, 413, tooLarge, true);

  let received = 0;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > ctx.maxBytes ? new TooLarge() : null, chunk);
    },
  });
  req.on('error', (err) => limiter.destroy(err));
  req.pipe(limiter);
  const controller = new AbortController();
  // The page closed, reloaded or cancelled (xhr.abort()) before the answer: stop and clean up.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let stalled = false;
  const stopWatching = watchForStall(
    ctx.stall,
    () => received,
    // pipe() pauses the request while the file stream catches up: that wait is ours, not the client's.
    () => req.isPaused() || limiter.writableNeedDrain,
    () => {
      stalled = true;
      controller.abort();
    },
  );
  const type = typeof req.headers['content-type'] === 'string' ? req.headers['content-type'].slice(0, 255) : '';
  try {
    const staging = ctx.userFiles.stage(name, type, limiter, expected, controller.signal);
    if (typeof uploadId === 'string') ctx.uploads.track(uploadId, controller, staging);
    const ref = await staging;
    send(res, ctx, 200, ref);
  } catch (err) {
    if (received > ctx.maxBytes) return refuse(res, ctx, 413, tooLarge, true);
    if (err instanceof StagingFull) {
      ctx.log(`[stage] refused "${name}": ${err.message}`);
      return refuse(res, ctx, err.httpStatus, err.error, true);
    }
    if (stalled) {
      const seconds = Math.round(ctx.stall.timeoutMs / 1000);
      ctx.log(`[stage] upload of "${name}" stalled after ${received} bytes (less than ${ctx.stall.minBytes} in ${ctx.stall.timeoutMs} ms); stopped`);
      const message = `The upload of "${name}" stalled: less than ${sizeText(ctx.stall.minBytes)} arrived in ${seconds} s, so it was stopped and nothing was kept. Check the connection and try again.`;
      refuse(res, ctx, 408, { code: 'timeout', message }, true);
      // The rest of the body is not read: close once the answer is out.
      res.once('finish', () => req.destroy());
      return;
    }
    if (err instanceof WorkbenchFailure) {
      if (err.error.code !== 'cancelled') return refuse(res, ctx, 400, err.error, true);
      // The page went away or cancelled (DELETE /stage/<id>): no one is left to read an answer.
      ctx.log(`[stage] upload of "${name}" stopped by the page after ${received} bytes`);
      return void res.destroy();
    }
    throw err;
  } finally {
    stopWatching();
  }
}

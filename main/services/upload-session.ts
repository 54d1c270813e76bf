/**
 * `userFiles.upload`: bytes only the page has (a File made in the page, or any file in browser
 * mode, where the page never has a path), staged through a contract session like any other bytes:
 * each message is one chunk (≤ UPLOAD_CHUNK_MAX_BYTES, 4 MiB), the page's `send` resolves once
 * its chunk is in the queue (the host's inbound window), and a chunk is taken only when the staging stream has room, so a
 * sender can never outrun the disk and no file is ever held whole. Closing the page's side
 * finishes the file; cancelling, or the window or socket going away, aborts it and removes the
 * partial copy before the result settles. Errors are values like every contract answer.
 *
 * Two limits of browser mode's former upload route live here: the announced size (at most
 * `maxBytes`, 4 GiB by default), and stalls rather than total time (a 1 GiB file over 2 MB/s takes
 * 9 minutes): an upload that gets less than `stall.minBytes` in any `stall.timeoutMs` while we wait
 * for the page (not for the disk) is stopped with `timeout`, which also ends a page that trickles
 * a chunk now and then to hold the upload open.
 */
import { PassThrough, type Writable } from 'node:stream';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { FileRef } from '../../shared/contract/user-files';
import type { UserFiles } from './user-files';

export interface UploadStart {
  name: string;
  type: string;
  size: number;
}

/** When an upload counts as stalled: less than `minBytes` arrived in `timeoutMs` of waiting for the page. */
export interface StallLimit {
  timeoutMs: number;
  minBytes: number;
}

/** Largest upload accepted by default: 4 GiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 ** 3;

/** 16 KiB in 30 s (about 550 bytes a second): any working link sends far more; a stuck one, or a trickle, less. */
export const DEFAULT_UPLOAD_STALL: StallLimit = { timeoutMs: 30_000, minBytes: 16 * 1024 };

export interface UploadLimits {
  maxBytes?: number;
  stall?: Partial<StallLimit>;
  log?: (line: string) => void;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(bytes % 1024 ** 3 === 0 ? 0 : 2)} GiB`;
  return bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MiB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;
}

/**
 * Calls `onStall` when a window of `limit.timeoutMs` ends with less than `limit.minBytes` received,
 * unless we held the page back at that moment (the disk is slower than the link) or this process
 * was too busy to look (the check itself ran late): neither is the page's stall.
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

/**
 * Settles when `stream` drains or closes (an aborted staging destroys it: the end of the wait, not
 * a failure here). One listener pair per wait, both removed when either fires: a race of two
 * `once()`s left the loser attached for the rest of the upload (one per chunk, 1024 for 1 GiB).
 */
function drainedOrClosed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.closed) return resolve();
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Bytes main buffers between the page and the staging file: a few messages, so receiving the next
 * one overlaps writing this one (at the stream default of 16 KiB every 1 MiB message waited for
 * its own disk write), and still a small fixed amount whatever the file's size.
 */
export const STAGING_BUFFER_BYTES = 2 * 1024 * 1024;

export async function stageUpload(
  userFiles: Pick<UserFiles, 'stage'>,
  start: UploadStart,
  messages: AsyncIterable<{ data: Uint8Array }>,
  signal: AbortSignal,
  limits: UploadLimits = {},
): Promise<FileRef> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  if (start.size > maxBytes) {
    throw new WorkbenchFailure({ code: 'invalid_input', message: `"${start.name}" (${sizeText(start.size)}) is larger than the ${sizeText(maxBytes)} upload limit.` });
  }
  const stall: StallLimit = { ...DEFAULT_UPLOAD_STALL, ...limits.stall };
  // Our own abort: the page's cancel or departure, or a stall.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) controller.abort();
  const body = new PassThrough({ highWaterMark: STAGING_BUFFER_BYTES });
  const result = userFiles.stage(start.name, start.type, body, start.size, controller.signal);
  // Awaited below; until then a failure must not count as unhandled.
  result.catch(() => {});
  let received = 0;
  let draining = false;
  let stalled = false;
  const stopWatching = watchForStall(
    stall,
    () => received,
    () => draining,
    () => {
      stalled = true;
      controller.abort();
    },
  );
  // What went wrong reading the page's side; the staging's own outcome is awaited either way, so
  // the result never settles while a partial file is still on disk.
  let readError: unknown = null;
  try {
    const iterator = messages[Symbol.asyncIterator]();
    // Each wait for the next chunk also ends at our abort (a stalled page's iterator never ends by
    // itself). Not a Promise.race with one long-lived promise: each race would stay attached to
    // it, holding its chunk, until the upload ends (measured: main held the whole file).
    const nextOrAbort = () =>
      new Promise<IteratorResult<{ data: Uint8Array }>>((resolve, reject) => {
        const onAbort = () => resolve({ done: true, value: undefined });
        if (controller.signal.aborted) return onAbort();
        controller.signal.addEventListener('abort', onAbort, { once: true });
        iterator.next().then(
          (result) => {
            controller.signal.removeEventListener('abort', onAbort);
            resolve(result);
          },
          (err: unknown) => {
            controller.signal.removeEventListener('abort', onAbort);
            reject(err as Error);
          },
        );
      });
    for (;;) {
      const next = await nextOrAbort();
      if (next.done || body.destroyed) break;
      received += next.value.data.byteLength;
      if (!body.write(next.value.data)) {
        draining = true;
        await drainedOrClosed(body);
        draining = false;
      }
    }
  } catch (err) {
    readError = err;
    controller.abort();
  } finally {
    stopWatching();
    signal.removeEventListener('abort', onAbort);
    // The iterator also ends on cancel: only a page that closed its side finishes the file.
    if (controller.signal.aborted) body.destroy();
    else body.end();
  }
  try {
    const ref = await result;
    if (readError) throw readError;
    return ref;
  } catch (err) {
    // The page's side failing (a lane chunk cut off) aborted the staging: its reason, not "cancelled".
    if (!stalled) throw readError ?? err;
    const seconds = Math.round(stall.timeoutMs / 1000);
    limits.log?.(`[upload] "${start.name}" stalled after ${received} bytes (less than ${stall.minBytes} in ${stall.timeoutMs} ms); stopped`);
    throw new WorkbenchFailure({
      code: 'timeout',
      message: `The upload of "${start.name}" stalled: less than ${sizeText(stall.minBytes)} arrived in ${seconds} s, so it was stopped and nothing was kept. Check the connection and try again.`,
    });
  }
}

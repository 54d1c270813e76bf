/**
 * A file's bytes from the page to main, the one way in both shells: the contract's
 * `userFiles.upload` session (browser mode: binary WebSocket frames; Electron: the contract's IPC).
 * The file is read one slice at a time (BYTES_PER_MESSAGE) and at most UPLOAD_WINDOW slices are
 * in flight, each `send` settling once main has taken it (the session's back-pressure), so a large
 * file is never held whole and progress is what main has. Cancel stops the session and waits
 * until main has removed the partial copy; one that finished as Cancel was pressed is released.
 * Failures are WorkbenchFailures with main's own error (code and message): the session's result
 * says why a send was refused. No `window` here, so the contract suite runs it over both transports.
 *
 * `lane` (browser mode): the session only opens and closes the upload; each slice, unread
 * (LANE_SLICE_BYTES each, UPLOAD_LANE_WINDOW in flight), is posted with fetch straight from the
 * browser's blob store (upload-lane.ts), so the page never reads the file. Electron's IPC cannot
 * carry a Blob, so there the slice is read. A slice the browser cannot read fails its request as
 * `network`; the upload then checks the slice itself, to say "could not be read" rather than
 * "disconnected".
 */
import type { WorkbenchApi } from '../../../shared/contract/api';
import { BYTES_PER_MESSAGE } from '../../../shared/contract/bytes';
import { WorkbenchFailure, isWorkbenchError } from '../../../shared/contract/errors';
import { SESSION_SEND_WINDOW } from '../../../shared/contract/protocol';
import { UPLOAD_CHUNK_MAX_BYTES, UPLOAD_LANE_WINDOW, type FileLike, type FileRef } from '../../../shared/contract/user-files';
import type { LanePoster } from './upload-lane';

/**
 * Bytes per lane request: the contract's largest upload chunk, since no page memory holds them
 * and fewer requests mean fewer round trips.
 */
export const LANE_SLICE_BYTES = UPLOAD_CHUNK_MAX_BYTES;

export interface UploadOptions {
  /**
   * Browser mode's bytes lane: each slice, unread, is posted with fetch (upload-lane.ts) to the
   * ticket the session gives; the session itself only opens and closes the upload.
   */
  lane?: LanePoster;
}

/** The part of the api an upload uses. */
export interface UploadApi {
  userFiles: Pick<WorkbenchApi['userFiles'], 'upload' | 'release'>;
}

/** Slices in flight at once: the bridge's own send window, so every slice read is already on its way. */
export const UPLOAD_WINDOW = SESSION_SEND_WINDOW;

export function uploadCancelled(name: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'cancelled', message: `The upload of "${name}" was cancelled.` });
}

function asFailure(err: unknown, name: string): WorkbenchFailure {
  if (err instanceof WorkbenchFailure) return err;
  if (typeof err === 'object' && err !== null && isWorkbenchError((err as { error?: unknown }).error)) return new WorkbenchFailure((err as { error: never }).error);
  const message = err instanceof Error ? err.message : String(err);
  return new WorkbenchFailure({ code: 'internal', message: `"${name}" could not be read: ${message}` });
}

function isNetworkFailure(err: unknown): boolean {
  return err instanceof WorkbenchFailure && err.error.code === 'network';
}

/** Reads a byte of the slice at `offset`: a file that changed or went away fails here with its own reason. */
async function throwIfUnreadable(file: FileLike, offset: number): Promise<void> {
  try {
    await file.slice(offset, offset + 1).arrayBuffer();
  } catch (err) {
    throw asFailure(err, file.name);
  }
}

/**
 * Uploads `file` to main; resolves with its reference. `report(loaded)` gives the bytes main has
 * taken so far; aborting `signal` rejects with `cancelled` once nothing of it is left in main.
 */
export async function uploadBytes(api: UploadApi, file: FileLike, report: (loaded: number) => void, signal?: AbortSignal, options: UploadOptions = {}): Promise<FileRef> {
  if (signal?.aborted) throw uploadCancelled(file.name);
  const lane = options.lane;
  let gotTicket: (ticket: string) => void = () => {};
  const ticketGiven = new Promise<string>((resolve) => (gotTicket = resolve));
  const upload = api.userFiles.upload({ name: file.name, type: file.type.slice(0, 255), size: file.size, ...(lane ? { lane: true as const } : {}) }, (chunk) => gotTicket(chunk.lane));
  // Read below; until then its failure must not count as unhandled.
  const result = upload.result.then(
    (ref) => ({ ok: true as const, ref }),
    (err: unknown) => ({ ok: false as const, err }),
  );
  let stopped = false;
  // Lane requests in flight: Cancel stops them too (main refuses what it has not taken).
  const controller = new AbortController();
  const onAbort = () => {
    stopped = true;
    controller.abort();
    void upload.cancel().catch(() => {});
  };
  /**
   * `promise`, or nothing once Cancel is pressed (a send main has not taken yet is not waited for).
   * Its own abort listener, removed when it settles: a race with one long-lived "stopped" promise
   * would leave a reaction on it per slice until the upload ends.
   */
  const unlessStopped = <T>(promise: Promise<T>): Promise<T | undefined> => {
    if (stopped || !signal) return stopped ? Promise.resolve(undefined) : promise;
    return new Promise<T | undefined>((resolve, reject) => {
      const wake = () => resolve(undefined);
      signal.addEventListener('abort', wake, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', wake);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', wake);
          reject(err as Error);
        },
      );
    });
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const inFlight: Promise<void>[] = [];
    let loaded = 0;
    const sliceBytes = lane ? LANE_SLICE_BYTES : BYTES_PER_MESSAGE;
    const maxInFlight = lane ? UPLOAD_LANE_WINDOW : UPLOAD_WINDOW;
    try {
      // The lane's address; a session main refused at once (over the size limit) never gives one.
      const ticket = lane && file.size > 0 ? await Promise.race([ticketGiven, result.then((ended) => (ended.ok ? '' : Promise.reject(ended.err as Error)))]) : '';
      let index = 0;
      for (let offset = 0; offset < file.size && !stopped; offset += sliceBytes) {
        const slice = file.slice(offset, offset + sliceBytes);
        // The lane posts the slice unread; the session's own messages carry its bytes.
        const data = lane ? null : new Uint8Array(await slice.arrayBuffer());
        if (stopped) break;
        const length = Math.min(sliceBytes, file.size - offset);
        const sending = lane ? lane(ticket, index++, slice, controller.signal) : upload.send({ data: data as Uint8Array });
        const sent = sending.then(() => {
          loaded += length;
          report(loaded);
        });
        // Awaited in turn below; one that fails while an earlier one is awaited is not unhandled.
        sent.catch(() => {});
        inFlight.push(sent);
        if (inFlight.length >= maxInFlight) await unlessStopped(inFlight.shift() as Promise<void>);
      }
      await unlessStopped(Promise.all(inFlight));
      if (!stopped) await upload.close();
    } catch (err) {
      // A slice that could not be read, or a send main refused: the session ends either way.
      controller.abort();
      void upload.cancel().catch(() => {});
      const ended = await result;
      if (stopped) throw uploadCancelled(file.name);
      // A lane request lost: the browser fails it when it cannot read the slice (a file that
      // changed or went away), so that reason, if it is one, comes first. The file is read at the
      // first byte main has not taken.
      if (lane && (isNetworkFailure(err) || (!ended.ok && isNetworkFailure(ended.err)))) await throwIfUnreadable(file, loaded);
      // Main's own reason (staging full, a stall) is in the result; a read error is the page's.
      if (!ended.ok && !(ended.err instanceof WorkbenchFailure && ended.err.error.code === 'cancelled')) throw asFailure(ended.err, file.name);
      if (ended.ok) void api.userFiles.release({ ref: ended.ref.ref }).catch(() => {});
      throw asFailure(err, file.name);
    }
    const ended = await result;
    if (stopped) {
      // Finished just as Cancel was pressed: its copy goes too, so Cancel leaves nothing behind.
      if (ended.ok) await api.userFiles.release({ ref: ended.ref.ref }).catch(() => {});
      throw uploadCancelled(file.name);
    }
    if (!ended.ok) throw asFailure(ended.err, file.name);
    return ended.ref;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Browser mode's bytes lane for `userFiles.upload`: the same contract session, but the page sends
 * each slice's bytes with `fetch(POST, body: Blob)` (Chromium streams a Blob body far faster than
 * a WebSocket sends one: test/bench/ws-ceiling.ts) instead of as session messages. The session
 * asks for it (`lane: true` in its start), main answers one chunk `{ lane }`: a 256-bit ticket
 * naming this upload, sent only to the tab that opened it. The route (main/host/upload-route.ts)
 * hands each request's body here with its index; chunks are fed to the staging in index order,
 * each request answered once its last byte is taken, and the body is streamed, never held.
 * Closing the session ends the bytes once every chunk before it has been taken; a chunk that is
 * cut off, a message on the session itself, or the session ending refuses what is still waiting.
 */
import { randomBytes } from 'node:crypto';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import { UPLOAD_CHUNK_MAX_BYTES, UPLOAD_LANE_WINDOW, type FileRef } from '../../shared/contract/user-files';
import { stageUpload, type UploadLimits, type UploadStart } from './upload-session';
import type { UserFiles } from './user-files';

/** Chunks a lane takes at once (the one being staged and those waiting): the page's window too. */
const LANE_WINDOW = UPLOAD_LANE_WINDOW;

/** How a chunk request ends: taken, or refused with an HTTP status and an error value. */
export type LaneAnswer = { ok: true; received: number } | { ok: false; status: number; error: WorkbenchError };

interface Pending {
  index: number;
  length: number;
  body: AsyncIterable<Uint8Array>;
  settle(answer: LaneAnswer): void;
}

function refused(status: number, code: WorkbenchError['code'], message: string): LaneAnswer {
  return { ok: false, status, error: { code, message } };
}

class Lane {
  private next = 0;
  private readonly waiting = new Map<number, Pending>();
  private current: Pending | null = null;
  private closed = false;
  private failure: WorkbenchFailure | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly name: string) {}

  /** A chunk's request body, answered once it is staged or refused. */
  offer(index: number, length: number, body: AsyncIterable<Uint8Array>): Promise<LaneAnswer> {
    if (this.closed || this.failure) return Promise.resolve(refused(409, 'invalid_input', `The upload of "${this.name}" has ended; chunk ${index} was not taken.`));
    if (index < this.next || this.waiting.has(index)) return Promise.resolve(refused(409, 'invalid_input', `Chunk ${index} of "${this.name}" was already sent.`));
    if (index >= this.next + LANE_WINDOW) {
      return Promise.resolve(refused(409, 'invalid_input', `Chunk ${index} of "${this.name}" is out of order: the upload takes chunks ${this.next} to ${this.next + LANE_WINDOW - 1} now.`));
    }
    return new Promise((settle) => {
      this.waiting.set(index, { index, length, body, settle });
      this.poke();
    });
  }

  /** The page closed its side of the session: the bytes end once the chunks before it are taken. */
  close(): void {
    this.closed = true;
    this.poke();
  }

  fail(failure: WorkbenchFailure): void {
    this.failure ??= failure;
    this.poke();
  }

  /** The upload is over: whatever still waits is refused. */
  end(): void {
    this.closed = true;
    const gone = refused(410, 'cancelled', `The upload of "${this.name}" has ended; the chunk was not taken.`);
    this.current?.settle(gone);
    for (const pending of this.waiting.values()) pending.settle(gone);
    this.waiting.clear();
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async nextChunk(): Promise<Pending | null> {
    for (;;) {
      if (this.failure) throw this.failure;
      const pending = this.waiting.get(this.next);
      if (pending) return pending;
      if (this.closed) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** The bytes in order, as the staging's messages. */
  async *messages(): AsyncGenerator<{ data: Uint8Array }> {
    for (;;) {
      const pending = await this.nextChunk();
      if (!pending) return;
      this.waiting.delete(pending.index);
      this.next++;
      this.current = pending;
      let got = 0;
      try {
        for await (const piece of pending.body) {
          got += piece.byteLength;
          if (got > pending.length) break;
          yield { data: piece };
        }
      } catch {
        // The request was cut off (its connection dropped): counted below as short.
      }
      this.current = null;
      if (got !== pending.length) {
        const failure = new WorkbenchFailure({ code: 'network', message: `Chunk ${pending.index} of "${this.name}" was cut off after ${got} of ${pending.length} bytes; nothing was kept.` });
        pending.settle({ ok: false, status: 400, error: failure.error });
        throw failure;
      }
      pending.settle({ ok: true, received: got });
    }
  }
}

/** The open lanes, by ticket: one per `userFiles.upload` session that asked for one. */
export class UploadLanes {
  private readonly lanes = new Map<string, Lane>();

  /**
   * `served`: a server takes the lane's posts (browser mode's loopback server). Electron has none,
   * so an upload asking for a lane there is refused at once instead of waiting for chunks that
   * can never come.
   */
  constructor(private readonly options: { served: boolean } = { served: true }) {}

  /** Called by the route for `POST <UPLOAD_LANE_PATH><ticket>/<index>` once the token and Origin are checked. */
  offer(ticket: string, index: number, length: number, body: AsyncIterable<Uint8Array>): Promise<LaneAnswer> {
    const lane = this.lanes.get(ticket);
    if (!lane) return Promise.resolve(refused(404, 'not_found', 'No upload is open at this address: it ended, or it was never opened by this page.'));
    if (length > UPLOAD_CHUNK_MAX_BYTES) return Promise.resolve(refused(413, 'invalid_input', `A chunk is at most 4 MiB; chunk ${index} is ${length} bytes.`));
    return lane.offer(index, length, body);
  }

  /** Open lanes (tests: none is left once its upload settles). */
  get size(): number {
    return this.lanes.size;
  }

  /**
   * Stages an upload whose bytes come over a lane: `announce` hands the ticket to the page (the
   * session's one chunk); `messages` are the session's own, which only close it.
   */
  async stage(
    userFiles: Pick<UserFiles, 'stage'>,
    start: UploadStart,
    session: { messages: AsyncIterable<unknown>; signal: AbortSignal; announce(ticket: string): Promise<void> },
    limits: UploadLimits = {},
  ): Promise<FileRef> {
    if (!this.options.served) {
      throw new WorkbenchFailure({ code: 'unsupported', message: `"${start.name}" asked for the upload lane, which only browser mode has; here the bytes go in the upload's own messages.` });
    }
    const ticket = randomBytes(32).toString('base64url');
    const lane = new Lane(start.name);
    this.lanes.set(ticket, lane);
    try {
      void (async () => {
        try {
          for await (const _ of session.messages) {
            lane.fail(new WorkbenchFailure({ code: 'invalid_input', message: `"${start.name}" sends its bytes over the upload lane, not as session messages.` }));
          }
          lane.close();
        } catch (err) {
          lane.fail(err instanceof WorkbenchFailure ? err : new WorkbenchFailure({ code: 'internal', message: String(err) }));
        }
      })();
      const staged = stageUpload(userFiles, start, lane.messages(), session.signal, limits);
      staged.catch(() => {});
      // Refused at once (over the size limit): the page needs no ticket.
      await Promise.race([session.announce(ticket), staged.then(() => {}, () => {})]);
      return await staged;
    } finally {
      this.lanes.delete(ticket);
      lane.end();
    }
  }
}

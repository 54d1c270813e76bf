/**
 * Records one run as it progresses: inserted as `pending` before the request leaves, checkpointed
 * while a stream runs (so a crash keeps what had arrived), and finished in one transaction.
 *
 * Raw SSE events are appended to the run's log as the stream goes: buffered, then written as one
 * compressed chunk every CHUNK_EVENTS events or CHUNK_MS after the first buffered one, whichever
 * comes first. Only the current chunk is ever in memory, nothing is rewritten, and a crash loses
 * at most the last quarter second of events.
 *
 * Each event passes the connection's EventLogScrubber first: every field masked, and a key split
 * over events masked in each (an event whose end could still start a key waits for the next one,
 * at most until the chunk timer, which writes it with that end masked).
 */
import { randomUUID } from 'node:crypto';
import { EventLogScrubber } from '../api/event-log-scrubber';
import { SecretScrubber } from '../api/secret-scrubber';
import type { CapturedEvent, CapturedRequest, RunRecord } from '../../shared/contract/runs';
import type { Db } from '../store/db';
import { appendRunEvents } from '../store/run-events';
import { getRun, insertRun, updateRun, type NewRun, type RunUpdate } from '../store/runs';

const CHECKPOINT_MS = 1000;
/** A chunk is written after this many events... */
export const CHUNK_EVENTS = 64;
/** ...or this long after its first event arrived. */
export const CHUNK_MS = 250;

export function newRunId(): string {
  return randomUUID().replace(/-/g, '');
}

export class RunRecorder {
  private pending: CapturedEvent[] = [];
  private chunkTimer: ReturnType<typeof setTimeout> | null = null;
  private lastCheckpoint = 0;
  private readonly log: EventLogScrubber;

  private constructor(
    private readonly db: Db,
    readonly id: string,
    private readonly now: () => number,
    private readonly sentRequest: CapturedRequest | undefined,
    scrubber: SecretScrubber,
  ) {
    this.log = new EventLogScrubber(scrubber);
  }

  /**
   * Inserts the run. `sent` is the request as sent when `run.request` is its recorded form (media
   * moved to the blob store): the record `finish()` returns shows what was sent. `scrubber` masks
   * the connection's key in the raw events (runs that keep none may leave it out).
   */
  static start(db: Db, run: NewRun, now: () => number = Date.now, sent?: CapturedRequest, scrubber: SecretScrubber = SecretScrubber.NONE): RunRecorder {
    insertRun(db, run);
    return new RunRecorder(db, run.id, now, sent, scrubber);
  }

  /** Keeps one raw event, masked; it reaches the database within CHUNK_MS. */
  event(event: CapturedEvent): void {
    this.pending.push(...this.log.push(event));
    // A full chunk is written at once; an event held back (it may end in the start of a key)
    // waits for the next event or the timer.
    if (this.pending.length >= CHUNK_EVENTS) this.flushEvents(false);
    if (this.pending.length > 0 || this.log.holding) this.chunkTimer ??= setTimeout(() => this.flushOnTimer(), CHUNK_MS).unref();
  }

  /** Writes every event received so far now (a held one with its possible key start masked): a live session's explicit flush. */
  flush(): void {
    this.flushEvents(true);
  }

  update(update: RunUpdate): void {
    updateRun(this.db, this.id, update);
  }

  /** Writes the partial output at most once a second; cheap to call on every chunk. */
  checkpoint(build: () => RunUpdate): void {
    const t = this.now();
    if (t - this.lastCheckpoint < CHECKPOINT_MS) return;
    this.lastCheckpoint = t;
    updateRun(this.db, this.id, build());
  }

  /** The last events and the end state, in one transaction. */
  finish(update: RunUpdate): RunRecord {
    this.clearTimer();
    const events = [...this.pending, ...this.log.end()];
    this.pending = [];
    this.db.transaction(() => {
      appendRunEvents(this.db, this.id, events);
      updateRun(this.db, this.id, update);
    })();
    const record = getRun(this.db, this.id);
    if (!record) throw new Error(`run ${this.id} vanished while it was being recorded`);
    return this.sentRequest ? { ...record, request: this.sentRequest } : record;
  }

  /** Writes what is pending; with `held`, also what the scrubber holds back (its possible key start masked). */
  private flushEvents(held: boolean): void {
    this.clearTimer();
    if (held) this.pending.push(...this.log.flush());
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    appendRunEvents(this.db, this.id, events);
  }

  private flushOnTimer(): void {
    try {
      this.flushEvents(true);
    } catch {
      // The database closed under a run (the app is quitting): the run is marked interrupted at
      // the next start with the events written so far; a throw here would only crash main.
    }
  }

  private clearTimer(): void {
    if (this.chunkTimer) clearTimeout(this.chunkTimer);
    this.chunkTimer = null;
  }
}

/**
 * Records one run as it progresses: inserted as `pending` before the request leaves, checkpointed
 * while a stream runs (so a crash keeps what had arrived), and finished in one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { CapturedEvent, RunRecord } from '../../shared/contract/runs';
import type { Db } from '../store/db';
import { getRun, insertRun, updateRun, type NewRun, type RunUpdate } from '../store/runs';

const CHECKPOINT_MS = 1000;

export function newRunId(): string {
  return randomUUID().replace(/-/g, '');
}

export class RunRecorder {
  readonly events: CapturedEvent[] = [];
  private lastCheckpoint = 0;

  private constructor(
    private readonly db: Db,
    readonly id: string,
    private readonly now: () => number,
  ) {}

  static start(db: Db, run: NewRun, now: () => number = Date.now): RunRecorder {
    insertRun(db, run);
    return new RunRecorder(db, run.id, now);
  }

  update(update: RunUpdate): void {
    updateRun(this.db, this.id, update);
  }

  /**
   * Writes the partial output at most once a second; cheap to call on every chunk. The raw events
   * (megabytes on a long stream) are written once, at the end: a crash keeps the text, not the log.
   */
  checkpoint(build: () => RunUpdate): void {
    const t = this.now();
    if (t - this.lastCheckpoint < CHECKPOINT_MS) return;
    this.lastCheckpoint = t;
    updateRun(this.db, this.id, build());
  }

  finish(update: RunUpdate): RunRecord {
    updateRun(this.db, this.id, { events: this.events, ...update });
    const record = getRun(this.db, this.id);
    if (!record) throw new Error(`run ${this.id} vanished while it was being recorded`);
    return record;
  }
}

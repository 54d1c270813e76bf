/**
 * History: search and read recorded runs (thin over the store, which owns the queries and the
 * blobs). What it hands out is masked once more with every saved key (`secrets`): runs recorded
 * before responses were scrubbed may still hold a key a service echoed, and a raw event log is
 * masked across its events too (one written before that was done may hold a key in pieces).
 */
import { scrubEventLog } from '../api/event-log-scrubber';
import type { SecretScrubber } from '../api/secret-scrubber';
import type { HistoryExportResult, HistoryPage, HistorySearchInput, RunEventsPage } from '../../shared/contract/history';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { CapturedEvent, RunRecord } from '../../shared/contract/runs';
import type { BlobStore } from '../store/blobs';
import type { Db } from '../store/db';
import { rehydrateRequest } from './request-media';
import { activeJobForRun } from '../store/jobs';
import { readRunEvents } from '../store/run-events';
import { deleteRun, getRun, orderRuns, runModels, searchRuns } from '../store/runs';
import type { SaveTarget } from './download-tickets';
import { exportRuns } from './history-export';

/** What History needs of the durable jobs: stopping the one that still carries a run. */
export interface RunJobs {
  cancel(id: string): unknown;
}

/**
 * Events read on either side of a page of events, so a key split over the page's edge is masked
 * too (a key spread over more events than this, with nothing between, is not expected).
 */
const EVENT_MARGIN = 64;

/** Where an export goes: Electron's save dialog, else browser mode's one-time links. */
export type HistoryExportTarget = SaveTarget;

export class HistoryService {
  constructor(
    private readonly db: Db,
    private readonly blobs?: BlobStore,
    private readonly jobs?: RunJobs,
    private readonly exportTarget?: HistoryExportTarget,
    private readonly secrets?: () => SecretScrubber,
  ) {}

  search(input: HistorySearchInput): HistoryPage {
    return this.scrub(searchRuns(this.db, input));
  }

  /** The run with its request as sent: media the store holds is put back (so a re-run sends the real bytes). */
  async get(id: string): Promise<RunRecord> {
    const stored = getRun(this.db, id);
    if (!stored) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    const run = this.scrub(stored);
    return this.blobs ? { ...run, request: await rehydrateRequest(this.blobs, run.request) } : run;
  }

  /** Events `offset .. offset+limit` of run `id`. */
  events(id: string, offset = 0, limit = 1_000): RunEventsPage {
    const from = Math.max(0, offset - EVENT_MARGIN);
    const read = readRunEvents(this.db, id, from, limit + (offset - from) + EVENT_MARGIN);
    if (!read) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    const events = this.scrubEvents(read.events).slice(offset - from, offset - from + limit);
    return { events, offset, total: read.total };
  }

  facets(): { models: string[] } {
    return { models: runModels(this.db) };
  }

  /** Runs `ids` as JSON Lines, saved where the user chose (Electron) or offered as a one-time link (browser mode). */
  exportJsonl(ids: readonly string[], signal?: AbortSignal): Promise<HistoryExportResult> {
    if (!this.exportTarget) throw new WorkbenchFailure({ code: 'internal', message: 'Export is not available in this shell.' });
    return exportRuns(
      {
        ...this.exportTarget,
        order: (wanted) => {
          const { ordered, missing } = orderRuns(this.db, wanted);
          if (missing[0] !== undefined) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${missing[0]} in history.` });
          return ordered;
        },
        get: (id) => this.get(id),
        events: (id) => this.scrubEvents(readRunEvents(this.db, id)?.events ?? []),
      },
      ids,
      signal,
    );
  }

  private scrub<T>(value: T): T {
    return this.secrets ? this.secrets().value(value) : value;
  }

  /** Consecutive events, each masked and a key spread over them masked in each. */
  private scrubEvents(events: CapturedEvent[]): CapturedEvent[] {
    return this.secrets ? scrubEventLog(this.secrets(), events) : events;
  }

  /** Deletes run `id`; a durable job still working for it (a pending deferred chat) is cancelled first, so it does not record into nothing. */
  remove(id: string): { removed: boolean } {
    const job = activeJobForRun(this.db, id);
    if (job) this.jobs?.cancel(job.id);
    return { removed: deleteRun(this.db, id) };
  }
}

/**
 * History: search and read recorded runs (thin over the store, which owns the queries and the
 * blobs). What it hands out is masked once more with every saved key (`secrets`): runs recorded
 * before responses were scrubbed may still hold a key a service echoed, and a raw event log is
 * masked across its events too (one written before that was done may hold a key in pieces).
 *
 * Media a request sent stay references in the record History shows, with a URL for each (the
 * page loads them as it loads the Gallery's, with Range); only `request()`, for a re-run, reads
 * their bytes back into the request.
 */
import { scrubEventLog } from '../api/event-log-scrubber';
import type { SecretScrubber } from '../api/secret-scrubber';
import type { HistoryExportResult, HistoryPage, HistorySearchInput, RunEventsPage, SessionRecord, SessionTimelinePage } from '../../shared/contract/history';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { blobReferencesIn, type MediaUrl } from '../../shared/contract/media';
import type { CapturedEvent, CapturedRequest, RunRecord } from '../../shared/contract/runs';
import type { BlobStore } from '../store/blobs';
import type { Db } from '../store/db';
import { rehydrateRequest } from './request-media';
import { activeJobForRun } from '../store/jobs';
import { readRunEvents } from '../store/run-events';
import { deleteRun, getRun, orderRuns, runModels, searchRuns } from '../store/runs';
import type { SaveTarget } from './download-tickets';
import { exportRuns } from './history-export';
import { readSessionRecord, readSessionTimeline, type SessionHistoryDeps } from './recording/session-history';

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
    /** The URL the page loads a blob from (MediaService.url); without it, `media` stays empty. */
    private readonly mediaUrl?: (hash: string) => Promise<MediaUrl>,
  ) {}

  search(input: HistorySearchInput): HistoryPage {
    return this.scrub(searchRuns(this.db, input));
  }

  /** The run as recorded: its request's media as blob references, and where the page loads each (`media`). */
  async get(id: string): Promise<RunRecord> {
    const run = this.read(id);
    const media: Record<string, MediaUrl> = {};
    if (this.mediaUrl) {
      for (const ref of blobReferencesIn(run.request.body)) {
        if (media[ref.$blob]) continue;
        try {
          media[ref.$blob] = await this.mediaUrl(ref.$blob);
        } catch {
          // The blob is gone from the data folder: the reference says what it was.
        }
      }
    }
    return { ...run, media };
  }

  /** The run's request as sent, media bytes put back: only a re-run (or its code) needs them. */
  async request(id: string): Promise<CapturedRequest> {
    return (await this.asSent(id)).request;
  }

  /** The run with its request as sent (the JSONL export keeps requests as they went out). */
  private async asSent(id: string): Promise<RunRecord> {
    const run = this.read(id);
    return this.blobs ? { ...run, request: await rehydrateRequest(this.blobs, run.request) } : run;
  }

  private read(id: string): RunRecord {
    const stored = getRun(this.db, id);
    if (!stored) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    return this.scrub(stored);
  }

  /** Events `offset .. offset+limit` of run `id`. */
  events(id: string, offset = 0, limit = 1_000): RunEventsPage {
    const from = Math.max(0, offset - EVENT_MARGIN);
    const read = readRunEvents(this.db, id, from, limit + (offset - from) + EVENT_MARGIN);
    if (!read) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    const events = this.scrubEvents(read.events).slice(offset - from, offset - from + limit);
    return { events, offset, total: read.total };
  }

  /** A recorded live session: tracks (with where their WAVs play from), marks and metrics. */
  session(id: string): Promise<SessionRecord> {
    return readSessionRecord(this.sessionDeps(), id);
  }

  /** A recorded live session's events and marks in one order, `offset .. offset+limit`. */
  timeline(id: string, offset = 0, limit = 500): SessionTimelinePage {
    return readSessionTimeline(this.sessionDeps(), id, offset, limit);
  }

  private sessionDeps(): SessionHistoryDeps {
    return { db: this.db, events: (id, offset, limit) => this.events(id, offset, limit), mediaUrl: this.mediaUrl };
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
        get: (id) => this.asSent(id),
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

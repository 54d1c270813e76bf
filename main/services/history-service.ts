/** History: search and read recorded runs (thin over the store, which owns the queries). */
import type { HistoryPage, HistorySearchInput, RunEventsPage } from '../../shared/contract/history';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { RunRecord } from '../../shared/contract/runs';
import type { Db } from '../store/db';
import { readRunEvents } from '../store/run-events';
import { deleteRun, getRun, runModels, searchRuns } from '../store/runs';

export class HistoryService {
  constructor(private readonly db: Db) {}

  search(input: HistorySearchInput): HistoryPage {
    return searchRuns(this.db, input);
  }

  get(id: string): RunRecord {
    const run = getRun(this.db, id);
    if (!run) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    return run;
  }

  /** Events `offset .. offset+limit` of run `id`. */
  events(id: string, offset = 0, limit = 1_000): RunEventsPage {
    const page = readRunEvents(this.db, id, offset, limit);
    if (!page) throw new WorkbenchFailure({ code: 'not_found', message: `No run with id ${id} in history.` });
    return page;
  }

  facets(): { models: string[] } {
    return { models: runModels(this.db) };
  }

  remove(id: string): { removed: boolean } {
    return { removed: deleteRun(this.db, id) };
  }
}

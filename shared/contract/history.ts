/** History: every run, searchable offline. */
import { z } from 'zod';
import { call } from './define';
import { ENDPOINTS, RUN_STATUSES, type RunRecord, type RunSummary } from './runs';

export const HistorySearchSchema = z
  .object({
    query: z.string().max(500).optional(),
    model: z.string().max(200).optional(),
    status: z.enum(RUN_STATUSES).optional(),
    endpoint: z.enum(ENDPOINTS).optional(),
    /** Opaque cursor from the previous page. */
    cursor: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(200).default(50),
  })
  .strict();

export type HistorySearchInput = z.input<typeof HistorySearchSchema>;

export interface HistoryPage {
  items: RunSummary[];
  nextCursor: string | null;
}

export const RunIdSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

export const historyContract = {
  search: call<HistoryPage>()(HistorySearchSchema),
  get: call<RunRecord>()(z.object({ id: RunIdSchema }).strict()),
  facets: call<{ models: string[] }>()(z.object({}).strict().optional()),
  remove: call<{ removed: boolean }>()(z.object({ id: RunIdSchema }).strict()),
};

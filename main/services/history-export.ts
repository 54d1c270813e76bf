/**
 * History's export: the chosen runs as JSON Lines, one whole record per line (request as sent,
 * response, output, usage, timings, error, and its raw stream events), oldest first, so a script
 * can replay or analyse them. Keys never appear: records are stored with their secrets already
 * redacted. Like a file download, Electron writes where the save dialog says (through a temporary
 * file renamed at the end, so a failure leaves nothing half-written) and browser mode hands the
 * page a one-time link.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import type { HistoryExportResult } from '../../shared/contract/history';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { CapturedEvent, RunRecord } from '../../shared/contract/runs';
import { chooseDestination, type SaveTarget } from './download-tickets';

export interface HistoryExportDeps extends SaveTarget {
  /** Runs `ids` in the export's order (oldest first), or a not_found failure naming one that is not in History. */
  order(ids: readonly string[]): string[];
  /** The run as History shows it (media put back), or a not_found failure. */
  get(id: string): Promise<RunRecord>;
  /** Every raw event of the run, in order. */
  events(id: string): CapturedEvent[];
  now?: () => number;
}

/** A line of the export: the record and its events, with a version for whoever reads it later. */
export interface ExportedRun extends RunRecord {
  format: 'inference-workbench.run/1';
  events: CapturedEvent[];
}

/** `workbench-runs-2026-11-24T0730.jsonl`, in the user's time zone being unknown here: UTC. */
export function exportFilename(now: number): string {
  return `workbench-runs-${new Date(now).toISOString().slice(0, 16).replace(':', '')}.jsonl`;
}

/**
 * Writes runs `ids` (duplicates dropped) oldest first; a run deleted meanwhile is a not_found
 * failure naming it. The destination is asked for before any run is read, and runs are read and
 * written one at a time, so memory stays that of the largest run whatever the selection.
 */
export async function exportRuns(deps: HistoryExportDeps, ids: readonly string[], signal?: AbortSignal): Promise<HistoryExportResult> {
  const ordered = deps.order([...new Set(ids)]);
  const filename = exportFilename((deps.now ?? Date.now)());
  const destination = await chooseDestination(deps, filename);
  if (!destination) return { filename, runs: 0, bytes: 0, cancelled: true };
  const { dest, token } = destination;
  const temp = token ? dest : `${dest}.${randomBytes(6).toString('hex')}.part`;
  let bytes = 0;
  try {
    const file = await open(temp, 'wx', 0o600);
    try {
      for (const id of ordered) {
        if (signal?.aborted) throw new WorkbenchFailure({ code: 'cancelled', message: 'The export was cancelled; nothing was saved.' });
        const record = await deps.get(id);
        const line: ExportedRun = { format: 'inference-workbench.run/1', ...record, events: deps.events(id) };
        const text = `${JSON.stringify(line)}\n`;
        bytes += Buffer.byteLength(text);
        await file.write(text);
      }
      await file.sync();
    } finally {
      await file.close();
    }
    if (!token) await rename(temp, dest);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (token) return { filename, runs: ordered.length, bytes, url: deps.tickets.publish(token, { path: dest, filename, bytes }) };
  return { filename, runs: ordered.length, bytes, savedTo: dest };
}

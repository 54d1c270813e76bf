import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadTickets } from '../../../../main/services/download-tickets';
import { exportRuns, type HistoryExportDeps } from '../../../../main/services/history-export';
import type { RunRecord } from '../../../../shared/contract/runs';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'wb-export-'));
  dirs.push(d);
  return d;
};

/** Deps over three runs, counting what was read. */
function deps(over: Partial<HistoryExportDeps> = {}): HistoryExportDeps & { reads: string[] } {
  const reads: string[] = [];
  const order = ['run-a', 'run-b', 'run-c'];
  return {
    reads,
    order: (ids) => order.filter((id) => ids.includes(id)),
    get: async (id) => {
      reads.push(id);
      if (id === 'run-gone') throw new Error('gone');
      return { id, createdAt: order.indexOf(id) } as unknown as RunRecord;
    },
    events: () => [],
    tickets: new DownloadTickets({ dir: tempDir() }),
    ...over,
  };
}

describe('exportRuns', () => {
  it('asks where to save before reading any run, and reads none when the dialog is closed', async () => {
    const d = deps({ chooseSaveTarget: async () => null });
    expect(await exportRuns(d, ['run-b', 'run-a'])).toMatchObject({ runs: 0, cancelled: true });
    expect(d.reads).toEqual([]);
  });

  it('reads and writes the runs one at a time in the order given, then renames the file into place', async () => {
    const dir = tempDir();
    const dest = join(dir, 'out.jsonl');
    const d = deps({ chooseSaveTarget: async () => dest });
    const result = await exportRuns(d, ['run-c', 'run-a', 'run-c']);
    expect(result).toMatchObject({ runs: 2, savedTo: dest });
    expect(d.reads).toEqual(['run-a', 'run-c']);
    expect(readFileSync(dest, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['run-a', 'run-c']);
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  it('leaves nothing half-written when a run cannot be read midway', async () => {
    const dir = tempDir();
    const dest = join(dir, 'out.jsonl');
    const d = deps({ chooseSaveTarget: async () => dest, order: () => ['run-a', 'run-gone'] });
    await expect(exportRuns(d, ['run-a', 'run-gone'])).rejects.toThrow('gone');
    expect(existsSync(dest)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});

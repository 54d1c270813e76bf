/**
 * History's comparison groups and JSONL export through the real app: runs sent as one comparison
 * are listed with their group, and an export of selected runs is one parseable line per run, oldest
 * first, with its events and without the connection's key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExportedRun } from '../../../main/services/history-export';
import { useHarness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

describe('History groups and export (real app, built-in sandbox)', () => {
  const h = useHarness();

  it('records a comparison group on every run of it, lists them together, and exports the selection as JSONL', async () => {
    const group = { kind: 'compare' as const, id: 'cmp-test-1' };
    const ask = (model: string, withGroup: boolean) =>
      h.send({ request: { model, messages: [{ role: 'user', content: 'Name a colour' }], stream: true }, ...(withGroup ? { group } : {}) });
    const [a, b] = await Promise.all([ask('svc-4', true), ask('svc-4-mini', true)]);
    const solo = await ask('svc-4', false);
    expect([a.record.group, b.record.group, solo.record.group]).toEqual([group, group, null]);

    const page = await h.app.handlers.history.search({ limit: 10 }, CTX);
    expect(page.items.filter((r) => r.group?.id === 'cmp-test-1').map((r) => r.id).sort()).toEqual([a.record.id, b.record.id].sort());

    const result = await h.app.handlers.history.exportJsonl({ ids: [solo.record.id, a.record.id, a.record.id] }, CTX);
    expect(result).toMatchObject({ runs: 2, url: expect.stringMatching(/^\/downloads\//), filename: expect.stringMatching(/^workbench-runs-.*\.jsonl$/) });
    const ticket = h.app.downloads.take(result.url!.slice('/downloads/'.length));
    expect(ticket).not.toBeNull();
    const text = readFileSync(ticket!.path, 'utf8');
    expect(Buffer.byteLength(text)).toBe(result.bytes);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as ExportedRun);
    expect(lines.map((r) => r.id)).toEqual([a.record.id, solo.record.id]);
    expect(lines[0]).toMatchObject({ format: 'inference-workbench.run/1', status: 'completed', group, request: { method: 'POST' } });
    expect(lines[0].events.length).toBeGreaterThan(2);
    expect(lines[0].events.length).toBe(a.record.eventCount);
    // The built-in sandbox's key is in the data folder; it must not be in the export.
    const key = readFileSync(join(h.dataDir, 'sandbox', 'key'), 'utf8').trim();
    expect(key.length).toBeGreaterThan(10);
    expect(text).not.toContain(key);
    expect(text).toContain('Bearer ***');
  });

  it('names a run that is not in history instead of exporting without it', async () => {
    await expect(h.app.handlers.history.exportJsonl({ ids: ['no-such-run'] }, CTX)).rejects.toMatchObject({ error: { code: 'not_found' } });
  });
});

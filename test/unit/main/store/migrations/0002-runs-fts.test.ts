import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { deleteRun, searchRuns, updateRun } from '../../../../../main/store/runs';

function insertV1Run(db: Database.Database, id: string, createdAt: number, prompt: string, output: string): void {
  db.prepare(
    `INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name,
       prompt_preview, output_preview, timings_json, prompt_text, output_text, request_json)
     VALUES (?, ?, ?, 'chat.completions', 'grok-4', 'completed', 'sandbox', 'Sandbox', ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    createdAt,
    createdAt,
    prompt,
    output,
    JSON.stringify({ startedAt: createdAt, ttfbMs: 5, totalMs: 9 }),
    prompt,
    output,
    JSON.stringify({ method: 'POST', url: 'http://x', headers: {}, body: { messages: [{ role: 'user', content: prompt }] } }),
  );
}

/** Run ids whose text matches `query`, straight from the index this migration creates. */
function matching(db: Database.Database, query: string): string[] {
  return db
    .prepare('SELECT runs.id FROM runs_fts JOIN runs ON runs.seq = runs_fts.rowid WHERE runs_fts MATCH ? ORDER BY runs.id')
    .pluck()
    .all(query) as string[];
}

describe('migrations/0002-runs-fts', () => {
  it('indexes runs recorded at version 1 and keeps the index in step afterwards', () => {
    const db = new Database(':memory:');
    migrateTo(db, 1);
    insertV1Run(db, 'old-1', 1_000, 'how do glaciers move', 'they creep under their own weight');
    insertV1Run(db, 'old-2', 2_000, 'name a prime number', 'seven is prime');

    migrateTo(db, 2);
    expect(schemaVersion(db)).toBe(2);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);
    // Summaries only: a full record needs columns of later migrations.
    expect(searchRuns(db, {}).items.find((r) => r.id === 'old-1')).toMatchObject({ promptPreview: 'how do glaciers move' });
    expect(matching(db, 'glaciers')).toEqual(['old-1']);
    expect(matching(db, 'prime')).toEqual(['old-2']);

    updateRun(db, 'old-2', { outputText: 'eleven works too' });
    expect(matching(db, 'seven')).toEqual([]);
    expect(matching(db, 'eleven')).toEqual(['old-2']);
    deleteRun(db, 'old-1');
    expect(matching(db, 'glaciers')).toEqual([]);
    // The FTS index agrees with its content table after all of that.
    expect(() => db.exec("INSERT INTO runs_fts (runs_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    db.close();
  });
});

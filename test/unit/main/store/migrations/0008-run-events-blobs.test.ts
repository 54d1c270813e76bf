import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { addBlobRef, getBlobRow } from '../../../../../main/store/blob-rows';
import { readRunEvents } from '../../../../../main/store/run-events';
import { deleteRun, getRun, searchRuns } from '../../../../../main/store/runs';

const events = (n: number) => Array.from({ length: n }, (_, i) => ({ t: 10 * i, ...(i % 2 ? { event: 'content_block_delta' } : {}), data: `{"delta":"tok${i}"}` }));

/** A version 7 database holding runs recorded the old way, with their events inline. */
function v7WithInlineEvents(): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrateTo(db, 7);
  const insert = db.prepare(
    `INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name, timings_json, prompt_text, output_text, request_json, events_json)
     VALUES (?, ?, ?, 'chat.completions', 'grok-4', 'completed', 'sandbox', 'Sandbox', '{"startedAt":0,"ttfbMs":null,"totalMs":5}', ?, ?, '{"method":"POST","url":"/v1/chat/completions","headers":{},"body":{}}', ?)`,
  );
  insert.run('long', 1_000, 1_000, 'tell me about herons', 'herons wade', JSON.stringify(events(150)));
  insert.run('plain', 2_000, 2_000, 'hello', 'hi', '[]');
  insert.run('broken', 3_000, 3_000, 'odd', 'odd', 'not json');
  return db;
}

describe('migrations/0008-run-events-blobs', () => {
  it('moves inline event logs of version 7 into compressed chunks and empties events_json', () => {
    const db = v7WithInlineEvents();
    expect(migrateTo(db, 8)).toEqual([8]);
    expect(schemaVersion(db)).toBe(8);
    // The store's queries are this build's: read with the latest schema.
    migrateTo(db);

    expect(readRunEvents(db, 'long')).toEqual({ events: events(150), offset: 0, total: 150 });
    expect(readRunEvents(db, 'long', 60, 10)?.events).toEqual(events(150).slice(60, 70));
    expect(getRun(db, 'long')).toMatchObject({ eventCount: 150, status: 'completed', promptPreview: '' });
    expect(readRunEvents(db, 'plain')).toEqual({ events: [], offset: 0, total: 0 });
    expect(readRunEvents(db, 'broken')).toEqual({ events: [], offset: 0, total: 0 });
    expect(db.prepare(`SELECT COUNT(*) FROM runs WHERE events_json <> '[]'`).pluck().get()).toBe(0);
    expect(db.prepare('SELECT chunk, first_event, count FROM run_event_chunks ORDER BY chunk').all()).toEqual([
      { chunk: 0, first_event: 0, count: 64 },
      { chunk: 1, first_event: 64, count: 64 },
      { chunk: 2, first_event: 128, count: 22 },
    ]);
    // Search still finds the old runs, and deleting one takes its chunks with it.
    expect(searchRuns(db, { query: 'herons' }).items.map((r) => r.id)).toEqual(['long']);
    deleteRun(db, 'long');
    expect(db.prepare('SELECT COUNT(*) FROM run_event_chunks').pluck().get()).toBe(0);
    db.close();
  });

  it('adds the blobs table with reference counts', () => {
    const db = v7WithInlineEvents();
    migrateTo(db, 8);
    const hash = 'a'.repeat(64);
    addBlobRef(db, { hash, size: 3, mime: 'image/png' }, 5);
    addBlobRef(db, { hash, size: 3, mime: 'image/png' }, 6);
    expect(getBlobRow(db, hash)).toEqual({ hash, size: 3, mime: 'image/png', createdAt: 5, refs: 2 });
    db.close();
  });
});

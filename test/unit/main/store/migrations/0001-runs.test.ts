import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';

describe('migrations/0001-runs', () => {
  it('turns an empty database (version 0) into one with the runs table and its indexes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-m1-'));
    try {
      const db = new Database(join(dir, 'v0.db'));
      expect(schemaVersion(db)).toBe(0);
      migrateTo(db, 1);
      expect(schemaVersion(db)).toBe(1);
      const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' AND name LIKE 'runs_by_%' ORDER BY name").all();
      expect(indexes).toEqual([{ name: 'runs_by_created' }, { name: 'runs_by_model' }, { name: 'runs_by_status' }]);

      db.prepare(
        `INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name, timings_json, request_json)
         VALUES ('r1', 1, 1, 'chat.completions', 'm', 'pending', 'sandbox', 'Sandbox', '{}', '{}')`,
      ).run();
      expect(db.prepare('SELECT id, events_json, retries, is_sandbox, prompt_text FROM runs').get()).toEqual({
        id: 'r1',
        events_json: '[]',
        retries: 0,
        is_sandbox: 0,
        prompt_text: '',
      });
      expect(() => db.prepare(`INSERT INTO runs (id, created_at, updated_at, endpoint, model, status, connection_id, connection_name, timings_json, request_json) VALUES ('r1', 2, 2, 'e', 'm', 's', 'c', 'n', '{}', '{}')`).run()).toThrow(/UNIQUE/);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

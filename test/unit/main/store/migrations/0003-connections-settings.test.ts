import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { listConnections, upsertConnection } from '../../../../../main/store/connections';
import { closeDatabase, openDatabase, SCHEMA_VERSION } from '../../../../../main/store/db';
import { migrateTo } from '../../../../../main/store/migrations/index';
import { getRun, insertRun, searchRuns } from '../../../../../main/store/runs';
import { getSetting, setSetting } from '../../../../../main/store/settings';
import { newRun } from '../run-fixtures';

describe('migrations/0003-connections-settings', () => {
  it('adds profiles and settings to a version 2 database without touching its history', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-m3-'));
    const path = join(dir, 'workbench.db');
    try {
      const v2 = new Database(path);
      migrateTo(v2, 2);
      const run = newRun('kept', 1_000, 'what rhymes with orange');
      insertRun(v2, run);
      v2.close();

      const db = openDatabase(path);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(getRun(db, 'kept')).toMatchObject({ id: 'kept', request: run.request, status: 'pending' });
      expect(searchRuns(db, { query: 'orange' }).items.map((r) => r.id)).toEqual(['kept']);

      upsertConnection(db, { id: 'work', name: 'Work', baseUrl: 'https://api.example.com' }, 5_000);
      setSetting(db, 'connections.active', 'work');
      expect(listConnections(db).map((c) => c.id)).toEqual(['work']);
      expect(getSetting(db, 'connections.active')).toBe('work');
      closeDatabase(db);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

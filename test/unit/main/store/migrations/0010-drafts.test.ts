import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { getDraft, listDrafts, writeDraft } from '../../../../../main/store/drafts';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { getSetting, setSetting } from '../../../../../main/store/settings';
import { insertRun, searchRuns } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0010-drafts', () => {
  it('keeps the runs and settings of version 9 and adds drafts whose revision survives a clear', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 9);
    insertRun(db, newRun('old', 1_000, 'ask about herons'));
    setSetting(db, 'tools.chat', [{ name: 'get_weather' }]);

    migrateTo(db, 10);
    expect(schemaVersion(db)).toBe(10);
    expect(db.prepare('SELECT id FROM runs').pluck().all()).toEqual(['old']);
    // Today's queries read today's schema (History's rows join the gallery, from 0011): the run is found once migrated on.
    migrateTo(db);
    expect(searchRuns(db, { query: 'herons' }).items.map((r) => r.id)).toEqual(['old']);
    expect(getSetting(db, 'tools.chat')).toEqual([{ name: 'get_weather' }]);

    expect(writeDraft(db, 'chat', '{"model":"svc-3"}', 'w', 10)).toEqual({ previous: null, revision: 1 });
    expect(writeDraft(db, 'chat', null, 'w', 11)).toMatchObject({ previous: { stateJson: '{"model":"svc-3"}' }, revision: 2 });
    expect(getDraft(db, 'chat')).toEqual({ key: 'chat', revision: 2, stateJson: null, updatedAt: 11 });
    expect(listDrafts(db)).toEqual([]);
    db.close();
  });
});

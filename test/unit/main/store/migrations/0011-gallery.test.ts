import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addBlobRef, getBlobRow } from '../../../../../main/store/blob-rows';
import { getDraft, writeDraft } from '../../../../../main/store/drafts';
import { insertGalleryItem, listGallery } from '../../../../../main/store/gallery';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { insertRun, searchRuns } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

describe('migrations/0011-gallery', () => {
  it('keeps the runs, blobs and drafts of version 10 and adds a searchable gallery', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 10);
    insertRun(db, newRun('old', 1_000, 'ask about herons'));
    addBlobRef(db, { hash: 'a'.repeat(64), size: 10, mime: 'image/png' }, 1_000);
    writeDraft(db, 'chat', '{"model":"svc-3"}', 'w', 10);

    migrateTo(db, 11);
    expect(schemaVersion(db)).toBe(11);
    expect(searchRuns(db, { query: 'herons' }).items.map((r) => r.id)).toEqual(['old']);
    expect(getBlobRow(db, 'a'.repeat(64))).toMatchObject({ refs: 1 });
    expect(getDraft(db, 'chat')).toMatchObject({ stateJson: '{"model":"svc-3"}' });

    insertGalleryItem(db, {
      id: 'gal_abcdefgh',
      kind: 'image',
      origin: 'generated',
      hash: 'a'.repeat(64),
      mime: 'image/png',
      bytes: 10,
      width: 1,
      height: 1,
      duration: null,
      prompt: 'a heron in the reeds',
      revisedPrompt: null,
      model: 'svc-image-1',
      name: 'heron.png',
      createdAt: 2_000,
      runId: 'old',
      jobId: null,
      sourceIds: [],
    });
    expect(listGallery(db, { query: 'reeds', limit: 10 })).toMatchObject({ total: 1, items: [{ id: 'gal_abcdefgh', runId: 'old' }] });
    expect(getBlobRow(db, 'a'.repeat(64))).toMatchObject({ refs: 2 });
    db.close();
  });
});

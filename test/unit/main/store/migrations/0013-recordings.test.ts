import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { addBlobRef, getBlobRow } from '../../../../../main/store/blob-rows';
import { deleteGalleryItem, getGalleryItem, insertGalleryItem, listGallery, setGalleryThumb, type NewGalleryRow } from '../../../../../main/store/gallery';
import { migrateTo, schemaVersion } from '../../../../../main/store/migrations/index';
import { deleteRun, insertRun } from '../../../../../main/store/runs';
import { newRun } from '../run-fixtures';

const hash = (c: string): string => c.repeat(64);

function item(id: string, over: Partial<NewGalleryRow>): NewGalleryRow {
  return {
    id,
    kind: 'image',
    origin: 'generated',
    hash: hash('a'),
    mime: 'image/png',
    bytes: 10,
    width: 4,
    height: 3,
    duration: null,
    prompt: '',
    revisedPrompt: null,
    model: null,
    name: '',
    createdAt: 1_000,
    runId: null,
    jobId: null,
    sourceIds: [],
    ...over,
  };
}

/** The gallery's indexes and triggers as SQLite keeps them (whitespace folded). */
const gallerySchema = (db: Database.Database): Array<{ type: string; name: string; sql: string }> =>
  db
    .prepare<[], { type: string; name: string; sql: string }>(`SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'gallery_items' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name`)
    .all()
    .map((r) => ({ ...r, sql: r.sql.replace(/\s+/g, ' ').trim() }));

/** Every column of every gallery row, in seq order (what the rebuild must carry over untouched). */
const galleryRows = (db: Database.Database): unknown[] => db.prepare('SELECT * FROM gallery_items ORDER BY seq').all();

describe('migrations/0013-recordings', () => {
  it('rebuilds the gallery from version 12 with every kind, id, link, thumbnail and search entry kept, and admits audio', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 12);
    insertRun(db, newRun('run-img', 1_000, 'herons'));
    insertRun(db, newRun('run-vid', 1_100, 'tides'));
    insertGalleryItem(db, item('gal_image001', { prompt: 'a heron in the reeds', model: 'svc-image-1', name: 'heron.png', runId: 'run-img' }));
    insertGalleryItem(db, item('gal_input001', { origin: 'input', hash: hash('b'), name: 'dropped.jpg', mime: 'image/jpeg', runId: 'run-img', createdAt: 1_050 }));
    insertGalleryItem(db, item('gal_video001', { kind: 'video', origin: 'extended', hash: hash('c'), mime: 'video/mp4', duration: 8.5, prompt: 'the tide comes in', jobId: 'job-9', runId: 'run-vid', sourceIds: ['gal_video000'], createdAt: 1_200 }));
    insertGalleryItem(db, item('gal_edit0001', { origin: 'edited', hash: hash('d'), revisedPrompt: 'a blue heron at dawn', createdAt: 1_300 }));
    setGalleryThumb(db, 'gal_video001', { hash: hash('e'), size: 5, mime: 'image/webp' }, 1_250);
    // The newest item is deleted: its seq must never be handed out again.
    insertGalleryItem(db, item('gal_gone0001', { hash: hash('f'), createdAt: 1_400 }));
    deleteGalleryItem(db, 'gal_gone0001');
    // The old table refuses audio: the rebuild is what lets it in.
    expect(() => insertGalleryItem(db, item('gal_audio000', { kind: 'audio' as never, mime: 'audio/wav' }))).toThrow(/CHECK/);
    const before = galleryRows(db);
    const schemaBefore = gallerySchema(db);

    migrateTo(db, 13);
    expect(schemaVersion(db)).toBe(13);
    expect(galleryRows(db)).toEqual(before);
    // Every index and trigger is back, word for word.
    expect(gallerySchema(db)).toEqual(schemaBefore);
    expect(getGalleryItem(db, 'gal_video001')).toMatchObject({ kind: 'video', origin: 'extended', runId: 'run-vid', jobId: 'job-9', sourceIds: ['gal_video000'], thumbHash: hash('e'), duration: 8.5 });
    // The full-text index still points at the right rows, old and new words alike.
    expect(listGallery(db, { query: 'reeds', limit: 10 }).items.map((i) => i.id)).toEqual(['gal_image001']);
    expect(listGallery(db, { query: 'blue heron', limit: 10 }).items.map((i) => i.id)).toEqual(['gal_edit0001']);
    expect(listGallery(db, { kind: 'video', limit: 10 }).items.map((i) => i.id)).toEqual(['gal_video001']);
    expect(getBlobRow(db, hash('e'))).toMatchObject({ refs: 1 });

    // Audio is admitted, searchable, and gets a seq above every one ever used.
    insertGalleryItem(db, item('gal_audio001', { kind: 'audio', mime: 'audio/wav', hash: hash('9'), duration: 2.5, prompt: 'spoken greeting', createdAt: 2_000 }));
    expect(listGallery(db, { query: 'greeting', limit: 10 }).items).toMatchObject([{ id: 'gal_audio001', kind: 'audio', duration: 2.5 }]);
    const seqs = db.prepare<[], { id: string; seq: number }>('SELECT id, seq FROM gallery_items ORDER BY seq').all();
    expect(seqs.at(-1)).toEqual({ id: 'gal_audio001', seq: 6 });
    // Triggers are back: an edit reindexes, a delete unindexes.
    db.prepare(`UPDATE gallery_items SET name = 'marsh bird' WHERE id = 'gal_image001'`).run();
    expect(listGallery(db, { query: 'marsh', limit: 10 }).items.map((i) => i.id)).toEqual(['gal_image001']);
    deleteGalleryItem(db, 'gal_audio001');
    expect(listGallery(db, { query: 'greeting', limit: 10 }).total).toBe(0);
    // The link to runs still behaves: deleting a run keeps its images and clears the link.
    deleteRun(db, 'run-img');
    expect(getGalleryItem(db, 'gal_image001')?.runId).toBeNull();
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('clears a link to a run that no longer exists (written with foreign keys off) instead of refusing to open', () => {
    const db = new Database(':memory:');
    migrateTo(db, 12);
    db.pragma('foreign_keys = OFF');
    insertGalleryItem(db, item('gal_dangling', { runId: 'gone' }));
    db.pragma('foreign_keys = ON');
    migrateTo(db, 13);
    expect(getGalleryItem(db, 'gal_dangling')?.runId).toBeNull();
    db.close();
  });

  it('carries the seq counter over when every item had been deleted', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 12);
    insertGalleryItem(db, item('gal_only0001', {}));
    insertGalleryItem(db, item('gal_only0002', { hash: hash('b') }));
    deleteGalleryItem(db, 'gal_only0001');
    deleteGalleryItem(db, 'gal_only0002');
    migrateTo(db, 13);
    insertGalleryItem(db, item('gal_next0001', {}));
    expect(db.prepare('SELECT seq FROM gallery_items').pluck().get()).toBe(3);
    db.close();
  });

  it('adds session, track and mark tables that go with their run and release the track blobs', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db, 13);
    insertRun(db, newRun('sess', 1_000, 'live'));
    addBlobRef(db, { hash: hash('7'), size: 44, mime: 'audio/wav' }, 1_000);
    db.prepare(`INSERT INTO recording_sessions (run_id, kind, state, started_at) VALUES ('sess', 'transcription', 'ended', 1000)`).run();
    db.prepare(
      `INSERT INTO audio_tracks (id, run_id, direction, format, sample_rate, channels, start_ms, state, frames, hash, bytes, created_at)
       VALUES ('trk_1', 'sess', 'in', 'pcm_s16le', 16000, 1, 0, 'closed', 0, ?, 44, 1000)`,
    ).run(hash('7'));
    db.prepare(`INSERT INTO session_marks (run_id, type, t_ms, event_index) VALUES ('sess', 'speech_started', 12.5, 3)`).run();
    expect(() => db.prepare(`INSERT INTO audio_tracks (id, run_id, direction, format, sample_rate, channels, start_ms, state, created_at) VALUES ('trk_2', 'sess', 'both', 'pcm_s16le', 16000, 1, 0, 'recording', 1)`).run()).toThrow(/CHECK/);

    deleteRun(db, 'sess');
    for (const table of ['recording_sessions', 'audio_tracks', 'session_marks']) expect(db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get()).toBe(0);
    expect(getBlobRow(db, hash('7'))).toMatchObject({ refs: 0 });
    db.close();
  });
});

import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getBlobRow, sweepOrphanBlobs } from '../../../../main/store/blob-rows';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import {
  deleteGalleryItem,
  galleryItemsOfRun,
  getGalleryItem,
  getGalleryItemByHash,
  insertGalleryItem,
  listGallery,
  setGalleryThumb,
  type NewGalleryRow,
} from '../../../../main/store/gallery';
import { deleteRun, insertRun } from '../../../../main/store/runs';
import { newRun } from './run-fixtures';

const hashOf = (n: number): string => n.toString(16).padStart(64, '0');

function item(n: number, over: Partial<NewGalleryRow> = {}): NewGalleryRow {
  return {
    id: `gal_item${String(n).padStart(6, '0')}`,
    kind: 'image',
    origin: 'generated',
    hash: hashOf(n),
    mime: 'image/png',
    bytes: 1000 + n,
    width: 1024,
    height: 768,
    duration: null,
    prompt: `picture number ${n}`,
    revisedPrompt: null,
    model: 'svc-image-1',
    name: `picture-${n}.png`,
    createdAt: 1_000 + n,
    runId: null,
    jobId: null,
    sourceIds: [],
    ...over,
  };
}

describe('store/gallery', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  describe('insertGalleryItem()', () => {
    it('keeps every field and takes a reference on the blob', () => {
      insertGalleryItem(db, item(1, { sourceIds: ['gal_source0001'], revisedPrompt: 'a revised picture', jobId: 'job_1' }));
      expect(getGalleryItem(db, 'gal_item000001')).toEqual({ ...item(1, { sourceIds: ['gal_source0001'], revisedPrompt: 'a revised picture', jobId: 'job_1' }), thumbHash: null, thumbMime: null });
      expect(getBlobRow(db, hashOf(1))).toMatchObject({ refs: 1, mime: 'image/png', size: 1001 });
    });

    it('writes nothing when the row is refused (a duplicate id): no stray blob reference', () => {
      insertGalleryItem(db, item(1));
      expect(() => insertGalleryItem(db, item(1, { hash: hashOf(99) }))).toThrow();
      expect(getBlobRow(db, hashOf(99))).toBeNull();
    });
  });

  describe('listGallery()', () => {
    beforeEach(() => {
      for (let n = 1; n <= 7; n++) insertGalleryItem(db, item(n, n === 3 ? { kind: 'video', mime: 'video/mp4', prompt: 'a heron takes off', name: 'heron.mp4' } : {}));
      insertGalleryItem(db, item(8, { prompt: 'Crème brûlée on a plate', revisedPrompt: 'a crème brûlée, overhead shot', model: 'svc-image-2' }));
    });

    it('pages newest first with a total and a cursor, and ends with next null', () => {
      const first = listGallery(db, { limit: 3 });
      expect(first.items.map((i) => i.id)).toEqual(['gal_item000008', 'gal_item000007', 'gal_item000006']);
      expect(first).toMatchObject({ total: 8, next: 'gal_item000006' });
      const second = listGallery(db, { limit: 3, after: first.next! });
      expect(second.items.map((i) => i.id)).toEqual(['gal_item000005', 'gal_item000004', 'gal_item000003']);
      const last = listGallery(db, { limit: 3, after: second.next! });
      expect(last.items.map((i) => i.id)).toEqual(['gal_item000002', 'gal_item000001']);
      expect(last.next).toBeNull();
    });

    it('keeps items made in the same millisecond in a stable order across pages', () => {
      for (let n = 20; n < 25; n++) insertGalleryItem(db, item(n, { createdAt: 5_000 }));
      const seen: string[] = [];
      let after: string | undefined;
      do {
        const page = listGallery(db, { limit: 2, after });
        seen.push(...page.items.map((i) => i.id));
        after = page.next ?? undefined;
      } while (after);
      expect(seen.slice(0, 5)).toEqual(['gal_item000024', 'gal_item000023', 'gal_item000022', 'gal_item000021', 'gal_item000020']);
      expect(new Set(seen).size).toBe(13);
    });

    it('filters by kind', () => {
      expect(listGallery(db, { kind: 'video', limit: 10 })).toMatchObject({ total: 1, items: [{ id: 'gal_item000003' }] });
    });

    it('searches prompt, revised prompt, model and name; every word must match; a typed prefix matches', () => {
      const ids = (query: string): string[] => listGallery(db, { query, limit: 10 }).items.map((i) => i.id);
      expect(ids('heron')).toEqual(['gal_item000003']);
      expect(ids('creme brulee')).toEqual(['gal_item000008']);
      expect(ids('overhead')).toEqual(['gal_item000008']);
      expect(ids('svc-image-2')).toEqual(['gal_item000008']);
      expect(ids('heron.mp4')).toEqual(['gal_item000003']);
      expect(ids('picture 5')).toEqual(['gal_item000005']);
      expect(ids('overh')).toEqual(['gal_item000008']);
      expect(ids('heron plate')).toEqual([]);
      expect(listGallery(db, { query: 'picture', limit: 2 })).toMatchObject({ total: 7, next: 'gal_item000007' });
    });

    it('takes search syntax in what the user typed literally, never as an error', () => {
      for (const query of ['"', 'NEAR(', 'a*', '-x', 'col:heron', '(', "'; DROP TABLE gallery_items; --"]) {
        expect(() => listGallery(db, { query, limit: 5 })).not.toThrow();
      }
      expect(listGallery(db, { query: '   ', limit: 50 }).total).toBe(8);
    });
  });

  describe('setGalleryThumb()', () => {
    it('references the new thumbnail and releases the one it replaces', () => {
      insertGalleryItem(db, item(1));
      expect(setGalleryThumb(db, 'gal_item000001', { hash: hashOf(500), size: 10, mime: 'image/jpeg' })).toBe(true);
      expect(setGalleryThumb(db, 'gal_item000001', { hash: hashOf(501), size: 12, mime: 'image/webp' })).toBe(true);
      expect(getGalleryItem(db, 'gal_item000001')).toMatchObject({ thumbHash: hashOf(501), thumbMime: 'image/webp' });
      expect(getBlobRow(db, hashOf(500))?.refs).toBe(0);
      expect(getBlobRow(db, hashOf(501))?.refs).toBe(1);
      expect(setGalleryThumb(db, 'gal_missing0001', { hash: hashOf(502), size: 1, mime: 'image/jpeg' })).toBe(false);
      expect(getBlobRow(db, hashOf(502))).toBeNull();
    });
  });

  describe('deleteGalleryItem()', () => {
    it('removes the row and its search entry and releases its blob and thumbnail', () => {
      insertGalleryItem(db, item(1, { prompt: 'lonely lighthouse' }));
      setGalleryThumb(db, 'gal_item000001', { hash: hashOf(600), size: 10, mime: 'image/jpeg' });
      expect(deleteGalleryItem(db, 'gal_item000001')?.id).toBe('gal_item000001');
      expect(getGalleryItem(db, 'gal_item000001')).toBeNull();
      expect(listGallery(db, { query: 'lighthouse', limit: 5 }).total).toBe(0);
      expect(getBlobRow(db, hashOf(1))?.refs).toBe(0);
      expect(getBlobRow(db, hashOf(600))?.refs).toBe(0);
      expect(deleteGalleryItem(db, 'gal_item000001')).toBeNull();
    });

    it('leaves a blob another item still holds', () => {
      insertGalleryItem(db, item(1));
      insertGalleryItem(db, item(2, { hash: hashOf(1) }));
      deleteGalleryItem(db, 'gal_item000001');
      expect(getBlobRow(db, hashOf(1))?.refs).toBe(1);
      expect(getGalleryItemByHash(db, hashOf(1))?.id).toBe('gal_item000002');
    });
  });

  describe('runs', () => {
    it('lists a run’s items and keeps them (run_id cleared) when the run is deleted from History', () => {
      insertRun(db, newRun('run1', 1_000, 'draw'));
      insertGalleryItem(db, item(1, { runId: 'run1' }));
      insertGalleryItem(db, item(2, { runId: 'run1' }));
      expect(galleryItemsOfRun(db, 'run1').map((i) => i.id)).toEqual(['gal_item000001', 'gal_item000002']);
      deleteRun(db, 'run1');
      expect(galleryItemsOfRun(db, 'run1')).toEqual([]);
      expect(getGalleryItem(db, 'gal_item000001')?.runId).toBeNull();
    });
  });
});

describe('store/gallery with the orphan sweep', () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gallery-sweep-'));
    db = openDatabase(':memory:');
  });
  afterEach(() => {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  it('never sweeps an item’s bytes, and sweeps them once the item is deleted', async () => {
    const store = new BlobStore(join(dir, 'blobs'));
    const blob = await store.put(Buffer.from('png bytes of a kept image'));
    insertGalleryItem(db, item(1, { hash: blob.hash, bytes: blob.size }));
    const old = new Date(Date.now() - 3 * 3600_000);
    utimesSync(store.pathOf(blob.hash), old, old);
    expect(await sweepOrphanBlobs(db, store)).toMatchObject({ files: 0 });
    expect(await store.has(blob.hash)).toBe(true);
    deleteGalleryItem(db, 'gal_item000001');
    expect(await sweepOrphanBlobs(db, store)).toMatchObject({ files: 1 });
    expect(await store.has(blob.hash)).toBe(false);
  });
});

/**
 * History's rows of media runs say what the run made (images: count and size; a video: duration
 * and resolution; an upload: the file's size), read with the summary, never from the output blobs
 * of text runs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { insertGalleryItem, type NewGalleryRow } from '../../../../main/store/gallery';
import { insertRun, searchRuns, updateRun } from '../../../../main/store/runs';
import { completion, newRun } from './run-fixtures';

const hashOf = (n: number): string => n.toString(16).padStart(64, '0');

function item(n: number, runId: string, over: Partial<NewGalleryRow> = {}): NewGalleryRow {
  return {
    id: `gal_item${String(n).padStart(6, '0')}`,
    kind: 'image',
    origin: 'generated',
    hash: hashOf(n),
    mime: 'image/png',
    bytes: 1000,
    width: 1024,
    height: 768,
    duration: null,
    prompt: 'a kite',
    revisedPrompt: null,
    model: 'svc-image-1',
    name: `kite-${n}.png`,
    createdAt: 1_000 + n,
    runId,
    jobId: null,
    sourceIds: [],
    ...over,
  };
}

describe('media facts of History rows', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  it('lists images by count and size, a video by duration and resolution, an upload by size, and nothing for text', () => {
    insertRun(db, newRun('img', 1_000, 'a kite', { endpoint: 'images.edits' }));
    insertGalleryItem(db, item(1, 'img', { origin: 'input', width: 4000, height: 3000, bytes: 9_999_999 }));
    insertGalleryItem(db, item(2, 'img', { origin: 'edited' }));
    insertGalleryItem(db, item(3, 'img', { origin: 'edited' }));
    insertRun(db, newRun('vid', 2_000, 'a heron', { endpoint: 'videos.generations' }));
    insertGalleryItem(db, item(4, 'vid', { kind: 'video', mime: 'video/mp4', width: 1280, height: 720, duration: 8, bytes: 2_000_000 }));
    insertRun(db, newRun('up', 3_000, 'notes.txt', { endpoint: 'files.upload' }));
    updateRun(db, 'up', { status: 'completed', output: { id: 'file_1', object: 'file', bytes: 49_000_000, filename: 'notes.txt' } as never, outputText: 'file_1' });
    insertRun(db, newRun('txt', 4_000, 'hello'));
    updateRun(db, 'txt', { status: 'completed', output: completion('hi'), outputText: 'hi' });
    insertRun(db, newRun('pending-img', 5_000, 'not yet', { endpoint: 'images.generations' }));

    const media = Object.fromEntries(searchRuns(db, {}).items.map((r) => [r.id, r.made]));
    // The input sent with the edit is not what the run made.
    expect(media.img).toEqual({ kind: 'images', count: 2, width: 1024, height: 768, duration: null, bytes: 2000 });
    expect(media.vid).toEqual({ kind: 'video', count: 1, width: 1280, height: 720, duration: 8, bytes: 2_000_000 });
    expect(media.up).toEqual({ kind: 'file', count: 1, width: null, height: null, duration: null, bytes: 49_000_000 });
    expect(media.txt).toBeNull();
    expect(media['pending-img']).toEqual({ kind: 'images', count: 0, width: null, height: null, duration: null, bytes: null });
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GalleryService } from '../../../../main/services/gallery-service';
import { MediaService } from '../../../../main/services/media-service';
import { IMAGE_INPUT, keepInputs, MP4_INPUT, resolveMediaSource, resolveMediaSources, type MediaSourceDeps } from '../../../../main/services/media-sources';
import { UserFiles } from '../../../../main/services/user-files';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import type { FileRecord } from '../../../../shared/families/files/contract';
import { gifOf, jpegOf, mp4Of, pngOf, webpOf } from './media-fixtures';

const edits = { accept: IMAGE_INPUT, purpose: 'edits' } as const;

describe('services/media-sources', () => {
  let dir: string;
  let db: Db;
  let blobs: BlobStore;
  let userFiles: UserFiles;
  let gallery: GalleryService;
  let files: Map<string, FileRecord>;
  let deps: MediaSourceDeps;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'media-sources-'));
    db = openDatabase(':memory:');
    blobs = new BlobStore(join(dir, 'blobs'));
    userFiles = new UserFiles({ stagingDir: join(dir, 'staging'), log: () => {} });
    gallery = new GalleryService({ db, blobs, media: new MediaService(db, blobs, (hash) => ({ url: `/media/${hash}`, expiresAt: null })) });
    files = new Map();
    deps = { userFiles, gallery, blobs, fileRecord: (id) => files.get(id) ?? null };
  });
  afterEach(() => {
    userFiles.dispose();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  async function refTo(name: string, bytes: Uint8Array): Promise<string> {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return (await userFiles.register(path)).ref;
  }

  describe('resolveMediaSource()', () => {
    it('sends a picked file as a base64 data URL of its real type', async () => {
      const png = pngOf(6, 4);
      const resolved = await resolveMediaSource(deps, { kind: 'ref', ref: await refTo('photo.png', png) }, { ...edits, field: 'image' });
      expect(resolved.wire).toEqual({ url: `data:image/png;base64,${png.toString('base64')}` });
      expect(resolved.local).toMatchObject({ mime: 'image/png', name: 'photo.png', galleryId: null });
    });

    it('goes by the bytes, not the name: a JPEG called .png is sent as a JPEG', async () => {
      const resolved = await resolveMediaSource(deps, { kind: 'ref', ref: await refTo('lying.png', jpegOf(8, 8)) }, { ...edits, field: 'image' });
      expect((resolved.wire as { url: string }).url.startsWith('data:image/jpeg;base64,')).toBe(true);
    });

    it('sends a gallery item’s bytes and remembers which item it was', async () => {
      const item = await gallery.add({ data: webpOf('VP8X', 30, 20), origin: 'generated', prompt: 'tile' });
      const resolved = await resolveMediaSource(deps, { kind: 'gallery', id: item.id }, { ...edits, field: 'images[0]' });
      expect((resolved.wire as { url: string }).url.startsWith('data:image/webp;base64,')).toBe(true);
      expect(resolved.local?.galleryId).toBe(item.id);
    });

    it('passes a Files id and a public URL through untouched', async () => {
      expect(await resolveMediaSource(deps, { kind: 'file', fileId: 'file_abc' }, { ...edits, field: 'image' })).toEqual({ wire: { file_id: 'file_abc' }, local: null });
      expect(await resolveMediaSource(deps, { kind: 'url', url: 'https://example.com/cat.png' }, { ...edits, field: 'image' })).toEqual({ wire: { url: 'https://example.com/cat.png' }, local: null });
    });

    it('checks a data URL’s bytes too, whatever type it claims', async () => {
      const url = `data:image/png;base64,${gifOf(2, 2).toString('base64')}`;
      await expect(resolveMediaSource(deps, { kind: 'url', url }, { ...edits, field: 'images[2]' })).rejects.toThrow('images[2]: That file is a GIF; edits take JPEG, PNG or WebP.');
      const fine = await resolveMediaSource(deps, { kind: 'url', url: `data:image/png;base64,${pngOf(2, 2).toString('base64')}` }, { ...edits, field: 'image' });
      expect(fine.local?.mime).toBe('image/png');
    });

    it('refuses a wrong type naming the field, the file, what it is and what is taken', async () => {
      const ref = await refTo('cat.gif', gifOf(10, 10));
      const failure = await resolveMediaSource(deps, { kind: 'ref', ref }, { ...edits, field: 'images[1]' }).catch((e: unknown) => e);
      expect(failure).toMatchObject({
        error: { code: 'invalid_input', message: 'images[1]: “cat.gif” is a GIF; edits take JPEG, PNG or WebP.', issues: [{ path: 'images[1]', message: '“cat.gif” is a GIF; edits take JPEG, PNG or WebP.' }] },
      });
      await expect(resolveMediaSource(deps, { kind: 'ref', ref: await refTo('notes.txt', Buffer.from('hello')) }, { ...edits, field: 'image' })).rejects.toThrow('“notes.txt” is not an image this app can read');
    });

    it('refuses a file over the limit with its size and the limit, before reading it', async () => {
      const small = { ...IMAGE_INPUT, maxBytes: 1024 };
      const ref = await refTo('big.png', pngOf(64, 64));
      await expect(resolveMediaSource(deps, { kind: 'ref', ref }, { accept: small, purpose: 'edits', field: 'image' })).rejects.toThrow(/^image: “big\.png” is \d+(\.\d)? KiB; edits take images up to 1 KiB\.$/);
    });

    it('refuses a Files id the app knows is expired, with when', async () => {
      files.set('file_old', { filename: 'old.png', status: 'expired', statusMessage: 'This file expired on 2026-11-20 10:00 UTC; the service no longer has it. Upload it again to use it.' } as FileRecord);
      await expect(resolveMediaSource(deps, { kind: 'file', fileId: 'file_old' }, { ...edits, field: 'image' })).rejects.toThrow('image: file_old (“old.png”): This file expired on 2026-11-20 10:00 UTC');
    });

    it('says a gone reference or gallery item is gone', async () => {
      await expect(resolveMediaSource(deps, { kind: 'ref', ref: 'ref_unknownunknownunknown' }, { ...edits, field: 'image' })).rejects.toMatchObject({ error: { code: 'not_found', message: expect.stringMatching(/^image: This file reference is unknown or has expired/) } });
      await expect(resolveMediaSource(deps, { kind: 'gallery', id: 'gal_nothere000' }, { ...edits, field: 'images[0]' })).rejects.toMatchObject({ error: { code: 'not_found' } });
    });

    it('takes an MP4 where a video is wanted and refuses an image there', async () => {
      const video = { accept: MP4_INPUT, purpose: 'video edits', field: 'video' };
      await expect(resolveMediaSource(deps, { kind: 'ref', ref: await refTo('still.png', pngOf(4, 4)) }, video)).rejects.toThrow('video: “still.png” is a PNG; video edits take MP4.');
      const mp4 = mp4Of(64, 48, 1);
      const resolved = await resolveMediaSource(deps, { kind: 'ref', ref: await refTo('clip.mp4', mp4) }, video);
      expect((resolved.wire as { url: string }).url.startsWith('data:video/mp4;base64,')).toBe(true);
    });
  });

  describe('resolveMediaSources() and keepInputs()', () => {
    it('names each source by its index, and keeps what was sent from here once per distinct bytes', async () => {
      const png = pngOf(5, 5);
      const existing = await gallery.add({ data: jpegOf(9, 9), origin: 'generated', prompt: 'earlier' });
      const sources = await resolveMediaSources(
        deps,
        [
          { kind: 'ref', ref: await refTo('a.png', png) },
          { kind: 'gallery', id: existing.id },
          { kind: 'ref', ref: await refTo('a-copy.png', png) },
          { kind: 'file', fileId: 'file_x' },
        ],
        { ...edits, field: (i) => `images[${i}]` },
      );
      const kept = await keepInputs(gallery, sources, { runId: null, kind: 'image' });
      expect(kept.map((i) => [i.origin, i.name])).toEqual([
        ['input', 'a.png'],
        ['generated', 'earlier.jpg'],
      ]);
      expect((await gallery.list()).total).toBe(2);
      const failure = await resolveMediaSources(deps, [{ kind: 'file', fileId: 'file_x' }, { kind: 'url', url: `data:image/gif;base64,${gifOf(1, 1).toString('base64')}` }], { ...edits, field: (i) => `images[${i}]` }).catch((e: unknown) => e);
      expect(failure).toMatchObject({ error: { issues: [{ path: 'images[1]' }] } });
    });
  });
});

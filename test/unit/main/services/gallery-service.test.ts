import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DownloadTickets } from '../../../../main/services/download-tickets';
import { GalleryService, nameFromPrompt } from '../../../../main/services/gallery-service';
import { MediaService } from '../../../../main/services/media-service';
import { getBlobRow } from '../../../../main/store/blob-rows';
import { BlobStore } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import type { GalleryItem } from '../../../../shared/contract/gallery';
import { jpegOf, mp4Of, pngOf } from './media-fixtures';

describe('services/gallery-service', () => {
  let dir: string;
  let db: Db;
  let blobs: BlobStore;
  let tickets: DownloadTickets;
  let changes: Array<{ id: string; removed: boolean; item: GalleryItem | null }>;
  let saveTo: string | null;
  let gallery: GalleryService;
  let clock: number;

  function service(shell: 'electron' | 'browser'): GalleryService {
    return new GalleryService({
      db,
      blobs,
      media: new MediaService(db, blobs, (hash) => ({ url: `/media/${hash}?t=x`, expiresAt: null })),
      emitChanged: (c) => changes.push(c),
      saveTarget: { tickets, ...(shell === 'electron' ? { chooseSaveTarget: async () => saveTo } : {}) },
      now: () => clock,
    });
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gallery-service-'));
    db = openDatabase(':memory:');
    blobs = new BlobStore(join(dir, 'blobs'));
    tickets = new DownloadTickets({ dir: join(dir, 'downloads') });
    changes = [];
    saveTo = join(dir, 'saved.png');
    clock = 1_700_000_000_000;
    gallery = service('electron');
  });
  afterEach(() => {
    tickets.dispose();
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('add()', () => {
    it('stores the bytes, reads type and size from them, names the item from the prompt and says so', async () => {
      const png = pngOf(48, 27);
      const item = await gallery.add({ data: png, origin: 'generated', prompt: 'A cat, in a tree!', model: 'svc-image-1', revisedPrompt: 'a ginger cat' });
      expect(item).toEqual({
        id: expect.stringMatching(/^gal_/),
        kind: 'image',
        origin: 'generated',
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        mime: 'image/png',
        bytes: png.length,
        width: 48,
        height: 27,
        duration: null,
        prompt: 'A cat, in a tree!',
        revisedPrompt: 'a ginger cat',
        model: 'svc-image-1',
        name: 'a-cat-in-a-tree.png',
        createdAt: clock,
        runId: null,
        jobId: null,
        sourceIds: [],
        url: { url: `/media/${item.hash}?t=x`, expiresAt: null, mime: 'image/png', size: png.length },
        thumbUrl: null,
      });
      expect(readFileSync(blobs.pathOf(item.hash))).toEqual(png);
      expect(changes).toEqual([{ id: item.id, removed: false, item }]);
    });

    it('adds a video from a file, with its size and duration from the MP4 header', async () => {
      const mp4 = mp4Of(160, 90, 1);
      const path = join(dir, 'clip.mp4');
      writeFileSync(path, mp4);
      const item = await gallery.add({ data: { path }, origin: 'generated', prompt: 'waves', jobId: 'job_1' });
      expect(item).toMatchObject({ kind: 'video', mime: 'video/mp4', width: 160, height: 90, duration: 1, name: 'waves.mp4', jobId: 'job_1' });
      expect((await gallery.ofJob('job_1')).map((i) => i.id)).toEqual([item.id]);
    });

    it('reuses the item holding the same bytes when asked to (inputs sent twice)', async () => {
      const jpg = jpegOf(20, 20);
      const first = await gallery.add({ data: jpg, origin: 'input', name: 'me.jpg', dedupe: true });
      const again = await gallery.add({ data: jpg, origin: 'input', name: 'me-again.jpg', dedupe: true });
      expect(again.id).toBe(first.id);
      expect(getBlobRow(db, first.hash)?.refs).toBe(1);
      expect((await gallery.list()).total).toBe(1);
    });

    it('refuses bytes that are neither an image nor a video, and keeps no row', async () => {
      await expect(gallery.add({ data: Buffer.from('%PDF-1.4 not a picture'), origin: 'input' })).rejects.toThrow(/a PDF; the gallery keeps images, videos and audio\./);
      await expect(gallery.add({ data: Buffer.from('hello'), origin: 'input' })).rejects.toThrow('Those bytes are of no type this app recognises; the gallery keeps images, videos and audio.');
      expect((await gallery.list()).total).toBe(0);
    });
  });

  describe('setThumb()', () => {
    it('keeps a real thumbnail and gives its URL; refuses bytes that are not the type they claim', async () => {
      const item = await gallery.add({ data: pngOf(300, 200), origin: 'generated', prompt: 'hills' });
      const thumb = jpegOf(64, 43);
      const withThumb = await gallery.setThumb({ id: item.id, mime: 'image/jpeg', bytes: thumb });
      expect(withThumb.thumbUrl).toMatchObject({ mime: 'image/jpeg', size: thumb.length });
      expect(changes.at(-1)).toMatchObject({ id: item.id, item: { thumbUrl: { mime: 'image/jpeg' } } });
      await expect(gallery.setThumb({ id: item.id, mime: 'image/webp', bytes: thumb })).rejects.toThrow(/is a JPEG, not the image\/webp/);
      await expect(gallery.setThumb({ id: item.id, mime: 'image/png', bytes: Buffer.from('<svg/>') })).rejects.toThrow(/not an image/);
      await expect(gallery.setThumb({ id: item.id, mime: 'image/png', bytes: pngOf(600, 10) })).rejects.toThrow('The thumbnail is 600×10; thumbnails are at most 512 px on their long side.');
      await expect(gallery.setThumb({ id: 'gal_missing000', mime: 'image/jpeg', bytes: thumb })).rejects.toMatchObject({ error: { code: 'not_found' } });
    });
  });

  describe('remove()', () => {
    it('removes the item and releases its blob so the page can no longer load it', async () => {
      const item = await gallery.add({ data: pngOf(8, 8), origin: 'generated', prompt: 'dot' });
      expect(gallery.remove(item.id)).toEqual({ removed: true });
      expect(changes.at(-1)).toEqual({ id: item.id, removed: true, item: null });
      expect(getBlobRow(db, item.hash)?.refs).toBe(0);
      await expect(gallery.get(item.id)).rejects.toBeInstanceOf(WorkbenchFailure);
      expect(gallery.remove(item.id)).toEqual({ removed: false });
    });
  });

  describe('list()', () => {
    it('pages newest first with URLs on every item', async () => {
      for (let i = 0; i < 3; i++) {
        clock += 1000;
        await gallery.add({ data: pngOf(4, 4, i), origin: 'generated', prompt: `tile ${i}` });
      }
      const page = await gallery.list({ limit: 2 });
      expect(page.items.map((i) => i.prompt)).toEqual(['tile 2', 'tile 1']);
      expect(page.total).toBe(3);
      expect(page.items.every((i) => i.url.url.startsWith('/media/'))).toBe(true);
      expect((await gallery.list({ after: page.next!, limit: 2 })).items.map((i) => i.prompt)).toEqual(['tile 0']);
    });
  });

  it('lists an item whose bytes were deleted by hand with an empty URL instead of failing the page', async () => {
    const gone = await gallery.add({ data: pngOf(6, 6, 1), origin: 'generated', prompt: 'gone' });
    await gallery.add({ data: pngOf(6, 6, 2), origin: 'generated', prompt: 'kept' });
    rmSync(blobs.pathOf(gone.hash));
    const page = await gallery.list();
    expect(page.items.map((i) => [i.prompt, i.url.url === ''])).toEqual([
      ['kept', false],
      ['gone', true],
    ]);
  });

  describe('save()', () => {
    it('Electron: writes the bytes where the user chose, and nothing when the dialog is closed', async () => {
      const png = pngOf(10, 10);
      const item = await gallery.add({ data: png, origin: 'generated', prompt: 'save me' });
      expect(await gallery.save(item.id)).toEqual({ filename: 'save-me.png', bytes: png.length, savedTo: saveTo });
      expect(readFileSync(saveTo!)).toEqual(png);
      saveTo = null;
      expect(await gallery.save(item.id)).toEqual({ filename: 'save-me.png', bytes: 0, cancelled: true });
    });

    it('browser mode: hands out a one-time link to a copy', async () => {
      const browser = service('browser');
      const png = pngOf(10, 10, 3);
      const item = await browser.add({ data: png, origin: 'generated', prompt: 'link me' });
      const saved = await browser.save(item.id);
      expect(saved).toMatchObject({ filename: 'link-me.png', bytes: png.length, url: expect.stringMatching(/^\/downloads\//) });
      const ticket = tickets.take(saved.url!.slice('/downloads/'.length));
      expect(readFileSync(ticket!.path)).toEqual(png);
    });
  });

  describe('nameFromPrompt()', () => {
    it('keeps the first words, drops accents and punctuation, and falls back to the kind', () => {
      expect(nameFromPrompt('Crème brûlée — overhead, 35mm', 'image/jpeg', 'image')).toBe('creme-brulee-overhead-35mm.jpg');
      expect(nameFromPrompt('', 'video/mp4', 'video')).toBe('video.mp4');
      expect(nameFromPrompt('!!!', 'image/webp', 'image')).toBe('image.webp');
    });
  });
});

/**
 * The images and gallery families through the app's own handlers (createApp, browser mode): an
 * edit's input reaches the gallery whatever the service answers, and the gallery serves it (a
 * media URL the browser-mode server signs), takes a thumbnail, saves through a one-time link and
 * deletes, announcing each change with `gallery.changed`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_BLOB_BYTES } from '../../../main/services/request-media';
import { ImageEditSchema, type ImageRunChunk } from '../../../shared/families/images/contract';
import { GalleryListSchema } from '../../../shared/contract/gallery';
import { jpegOf, pngOf } from '../../unit/main/services/media-fixtures';
import { useHarness } from './harness';

describe('gallery through the app', () => {
  const h = useHarness();
  const call = { sessionId: 'test', signal: new AbortController().signal };

  it('keeps an edit’s input, then lists, thumbnails, saves and deletes it', async () => {
    const png = pngOf(30, 20, 4);
    // Small enough to stay inline in the run's request: the gallery item is the blob's only holder.
    expect(png.length).toBeLessThan(MIN_BLOB_BYTES);
    const chunks: ImageRunChunk[] = [];
    const input = ImageEditSchema.parse({ model: 'svc-image-1', prompt: 'make it blue', images: [{ kind: 'url', url: `data:image/png;base64,${png.toString('base64')}` }] });
    // Whatever the embedded sandbox answers, the image that was sent is now in the gallery.
    await h.app.handlers.images.edit(input, { ...call, streamId: 's1', emit: (c) => chunks.push(c) }).catch(() => null);
    const runId = (chunks[0] as { runId: string }).runId;

    const page = await h.app.handlers.gallery.list(GalleryListSchema.parse({ kind: 'image' }), call);
    const item = page.items.find((i) => i.origin === 'input')!;
    expect(item).toMatchObject({ mime: 'image/png', width: 30, height: 20, runId, url: { url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\?t=/) } });
    expect(await h.app.media.lookup.find(item.hash)).toMatchObject({ size: png.length, mime: 'image/png' });
    expect(await h.app.handlers.gallery.byHash({ hash: item.hash }, call)).toMatchObject({ id: item.id });
    expect((await h.app.handlers.images.ofRun({ runId }, call))?.inputs.map((i) => i.id)).toEqual([item.id]);

    const thumbed = await h.app.handlers.gallery.setThumb({ id: item.id, mime: 'image/jpeg', bytes: jpegOf(16, 10) }, call);
    expect(thumbed.thumbUrl?.url).toMatch(/^\/media\//);

    const saved = await h.app.handlers.gallery.save({ id: item.id }, { ...call, streamId: 's2', emit: () => {} });
    const ticket = h.app.downloads.take(saved.url!.slice('/downloads/'.length));
    expect(readFileSync(ticket!.path)).toEqual(png);

    expect(await h.app.handlers.gallery.remove({ id: item.id }, call)).toEqual({ removed: true });
    expect(await h.app.media.lookup.find(item.hash)).toBeNull();
    const changes = h.events.filter((e) => e.channel === 'gallery.changed').map((e) => e.payload as { id: string; removed: boolean });
    expect(changes.filter((c) => c.id === item.id).map((c) => c.removed)).toEqual([false, false, true]);
  });

  it('keeps a chosen file as an input item a draft can name after a restart: the reference released, the same bytes one item, a non-image refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-keep-'));
    try {
      const png = pngOf(12, 8, 2);
      writeFileSync(join(dir, 'cat.png'), png);
      writeFileSync(join(dir, 'again.png'), png);
      writeFileSync(join(dir, 'notes.txt'), 'not a picture');
      const first = await h.app.userFiles.register(join(dir, 'cat.png'));
      const item = await h.app.handlers.gallery.keepInput({ ref: first.ref }, call);
      expect(item).toMatchObject({ origin: 'input', kind: 'image', mime: 'image/png', width: 12, height: 8, name: 'cat.png' });
      expect(await h.app.media.lookup.find(item.hash)).toMatchObject({ size: png.length });
      // The reference is spent: the item, not the staged copy, is what the form keeps.
      expect(() => h.app.userFiles.resolve(first.ref)).toThrow(/unknown or has expired/);
      const again = await h.app.handlers.gallery.keepInput({ ref: (await h.app.userFiles.register(join(dir, 'again.png'))).ref }, call);
      expect(again.id).toBe(item.id);
      const text = await h.app.userFiles.register(join(dir, 'notes.txt'));
      await expect(h.app.handlers.gallery.keepInput({ ref: text.ref }, call)).rejects.toMatchObject({ error: { code: 'invalid_input' } });
      expect(() => h.app.userFiles.resolve(text.ref)).toThrow(/unknown or has expired/);
      // An edit that names the item sends its bytes (the draft's input after a restart).
      const chunks: ImageRunChunk[] = [];
      await h.app.handlers.images.edit(ImageEditSchema.parse({ model: 'svc-image-1', prompt: 'a hat', images: [{ kind: 'gallery', id: item.id }] }), { ...call, streamId: 's3', emit: (c) => chunks.push(c) });
      const runId = (chunks[0] as { runId: string }).runId;
      expect((await h.app.handlers.images.ofRun({ runId }, call))?.inputs.map((i) => i.id)).toEqual([item.id]);
      // The first run that sends a kept input owns it, so History's entry of that run shows it.
      expect((await h.app.handlers.gallery.ofRun({ runId }, call)).map((i) => [i.id, i.origin])).toContainEqual([item.id, 'input']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

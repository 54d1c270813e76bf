import { describe, expect, it } from 'vitest';
import type { WorkbenchApi } from '@shared/contract/api';
import type { GalleryItem } from '@shared/contract/gallery';
import type { FileRef } from '@shared/contract/user-files';
import { readVideoQuery } from '@/lib/video-query';
import { makeFileRecord } from '../fake-workbench';

const item = (over: Partial<GalleryItem>): GalleryItem => ({
  id: 'gal_image0001', kind: 'image', origin: 'generated', hash: 'a'.repeat(64), mime: 'image/png', bytes: 10, width: 1, height: 1, duration: null,
  prompt: 'p', revisedPrompt: null, model: null, name: 'cat.png', createdAt: 1, runId: null, jobId: null, sourceIds: [],
  url: { url: '/media/x', expiresAt: null, mime: 'image/png', size: 10 }, thumbUrl: null, ...over,
});
const gallery = [item({}), item({ id: 'gal_video0001', kind: 'video', mime: 'video/mp4', name: 'clip.mp4' })];
const fileId = 'file_00000000-0000-0000-0000-00000000000a';
const api = {
  gallery: { get: async ({ id }: { id: string }) => gallery.find((g) => g.id === id) ?? Promise.reject(new Error('gone')) },
  files: { get: async ({ id }: { id: string }) => makeFileRecord({ id, filename: 'clip.mp4', contentType: 'video/mp4' }) },
} as unknown as WorkbenchApi;
const dropped = (ref: string): FileRef | undefined => (ref === REF_KNOWN ? { ref, name: 'dropped.mp4', size: 5, type: 'video/mp4' } : undefined);
const ref = 'ref_AAAAAAAAAAAAAAAAAAAA';
const REF_KNOWN = ref;

describe('video-query', () => {
  describe('readVideoQuery()', () => {
    it('makes ?image= a gallery image to animate, ?extend= and ?edit= a gallery video', async () => {
      expect(await readVideoQuery({ image: 'gal_image0001' }, api, dropped)).toEqual({
        mode: 'generate',
        chip: { source: { kind: 'gallery', id: 'gal_image0001' }, label: 'cat.png', kind: 'image', mime: 'image/png' },
        message: 'Form filled from the gallery (cat.png).',
      });
      expect(await readVideoQuery({ extend: 'gal_video0001' }, api, dropped)).toMatchObject({ mode: 'extend', chip: { source: { kind: 'gallery', id: 'gal_video0001' }, kind: 'video' } });
      expect(await readVideoQuery({ edit: 'gal_video0001' }, api, dropped)).toMatchObject({ mode: 'edit' });
    });

    it('refuses a gallery item of the wrong kind and an id that is not one', async () => {
      expect(await readVideoQuery({ extend: 'gal_image0001' }, api, dropped)).toEqual({ problem: 'Gallery item "cat.png" is an image; only a video can be extended.' });
      expect(await readVideoQuery({ image: 'nope' }, api, dropped)).toEqual({ problem: '"nope" is not a gallery item id.' });
    });

    it('reads ?file= by the file’s type unless ?as= says, and ?ref= as the drop router wrote it', async () => {
      expect(await readVideoQuery({ file: fileId }, api, dropped)).toMatchObject({ mode: 'edit', chip: { source: { kind: 'file', fileId }, label: 'clip.mp4', mime: 'video/mp4' } });
      expect(await readVideoQuery({ file: fileId, as: 'extend' }, api, dropped)).toMatchObject({ mode: 'extend' });
      expect(await readVideoQuery({ ref, as: 'extend' }, api, dropped)).toEqual({
        mode: 'extend',
        chip: { source: { kind: 'ref', ref }, label: 'dropped.mp4', kind: 'video', mime: 'video/mp4' },
        message: 'Form filled with dropped.mp4.',
      });
      expect(await readVideoQuery({ ref: 'bad' }, api, dropped)).toEqual({ problem: 'That link’s dropped file is not a valid reference.' });
      // A link this page did not make (a reload): named by the link, its type by the name.
      const other = 'ref_BBBBBBBBBBBBBBBBBBBB';
      expect(await readVideoQuery({ ref: other, name: 'old.mp4' }, api, dropped)).toMatchObject({ mode: 'edit', chip: { source: { kind: 'ref', ref: other }, label: 'old.mp4', kind: 'video' } });
    });

    it('asks nothing of a query without its keys', async () => {
      expect(await readVideoQuery({ other: '1' }, api, dropped)).toBeNull();
    });
  });
});

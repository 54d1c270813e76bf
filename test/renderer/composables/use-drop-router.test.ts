import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { createMemoryHistory, type Router } from 'vue-router';
import type { FileRef } from '@shared/contract/user-files';
import { createAppRouter } from '@/router';
import { useFileDrop } from '@/composables/use-file-drop';
import { useDroppedFilesStore } from '@/stores/dropped-files';
import { provideWorkbench } from '@/api';
import { createFakeWorkbench } from '../fake-workbench';

// Staging (the preload's path, or userFiles.upload over the contract) is tested on its own; here it hands back references.
const staged: string[] = [];
vi.mock('@/bridge/user-files', () => ({
  fileRefsFrom: async (files: File[], options: { onProgress?: (p: { index: number; name: string; loaded: number; total: number }) => void } = {}) =>
    files.map((f, index): FileRef => {
      staged.push(f.name);
      options.onProgress?.({ index, name: f.name, loaded: f.size, total: f.size });
      return { ref: `ref_${'D'.repeat(19)}${index}`, name: f.name, size: f.size, type: f.type };
    }),
}));

const { useDropRouter } = await import('@/composables/use-drop-router');

let scope: EffectScope;
let router: Router;
beforeEach(async () => {
  setActivePinia(createPinia());
  provideWorkbench(createFakeWorkbench());
  router = createAppRouter(createMemoryHistory());
  await router.push('/chat');
  scope = effectScope();
});
afterEach(() => {
  scope.stop();
  staged.length = 0;
});

function drop(files: File[], on: EventTarget = window): Event {
  const event = new Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files, dropEffect: 'none' } });
  on.dispatchEvent(event);
  return event;
}

const png = () => new File(['png'], 'cat.png', { type: 'image/png' });
const labels = (r: ReturnType<typeof useDropRouter>) => r.pending.value?.offer.actions.map((a) => a.label);

describe('use-drop-router', () => {
  describe('useDropRouter()', () => {
    it('offers a dropped image its three actions, and never lets the browser open it', () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      const event = drop([png()]);
      expect(event.defaultPrevented).toBe(true);
      expect(labels(r)).toEqual(['Edit in Images', 'Make a video from it', 'Upload to Files']);
    });

    it('offers an MP4 edit, extend and upload; a text file only the upload, with the reason', () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      drop([new File(['v'], 'clip.mp4', { type: 'video/mp4' })]);
      expect(labels(r)).toEqual(['Edit video', 'Extend video', 'Upload to Files']);
      r.close();
      drop([new File(['t'], 'notes.txt', { type: 'text/plain' })]);
      expect(labels(r)).toEqual(['Upload to Files']);
      expect(r.pending.value?.offer.note).toContain('No image or video action fits text/plain');
    });

    it('leaves a drop a view took for itself: a window-wide zone registered after it, or an element’s own', () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      const got: File[][] = [];
      const viewScope = effectScope();
      viewScope.run(() => useFileDrop(null, (files) => got.push(files)));
      drop([png()]);
      expect(got).toHaveLength(1);
      expect(r.pending.value).toBeNull();
      viewScope.stop();

      const zone = document.createElement('div');
      document.body.appendChild(zone);
      zone.addEventListener('drop', (e) => e.preventDefault());
      drop([png()], zone);
      expect(r.pending.value).toBeNull();
      zone.remove();
      drop([png()], document.body);
      expect(r.pending.value).not.toBeNull();
    });

    it('turns the file into a reference and opens the route of the chosen action', async () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      drop([png()]);
      await r.choose('image-to-video');
      expect(staged).toEqual(['cat.png']);
      expect(router.currentRoute.value.fullPath).toBe(`/videos?ref=ref_${'D'.repeat(19)}0&as=image&name=cat.png`);
      expect(r.pending.value).toBeNull();
      expect(useDroppedFilesStore().get(`ref_${'D'.repeat(19)}0`).name).toBe('cat.png');
    });

    it('uploads several files through Files', async () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      drop([png(), new File(['t'], 'notes.txt')]);
      expect(labels(r)).toEqual(['Upload 2 files to Files']);
      await r.choose('upload');
      expect(router.currentRoute.value.fullPath).toBe(`/files?upload=ref_${'D'.repeat(19)}0&upload=ref_${'D'.repeat(19)}1`);
    });

    it('accepts a drag of files over any view (copy) and leaves text and links to the page', () => {
      scope.run(() => useDropRouter({ router }));
      const over = (types: string[]): Event => {
        const event = new Event('dragover', { bubbles: true, cancelable: true });
        Object.defineProperty(event, 'dataTransfer', { value: { types, files: [], dropEffect: 'none' } });
        window.dispatchEvent(event);
        return event;
      };
      const files = over(['Files']);
      expect([files.defaultPrevented, (files as DragEvent).dataTransfer!.dropEffect]).toEqual([true, 'copy']);
      expect(over(['text/plain']).defaultPrevented).toBe(false);
    });

    it('stops listening when its scope ends', () => {
      const r = scope.run(() => useDropRouter({ router }))!;
      scope.stop();
      const event = drop([png()]);
      expect(event.defaultPrevented).toBe(false);
      expect(r.pending.value).toBeNull();
    });
  });
});

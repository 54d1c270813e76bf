/**
 * Files the user dropped and the page turned into references (the drop router, a view's own drop
 * zone): what each `ref` is called, its size and type, so the view a route like
 * `/videos?ref=<ref>` or `/files?upload=<ref>` opens can show and check it. Only this page's
 * drops are known; a ref from elsewhere (a reload) is still usable, just unnamed.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { FileRef } from '@shared/contract/user-files';

export const useDroppedFilesStore = defineStore('dropped-files', () => {
  const byRef = shallowRef<ReadonlyMap<string, FileRef>>(new Map());
  /** Page-local previews (object URLs) of dropped images, for the view that shows them. */
  const previews = new Map<string, string>();

  /** Keeps what each reference is; `files` (the dropped Files, same order) give images a preview. */
  function remember(refs: readonly FileRef[], files: readonly Blob[] = []): void {
    const next = new Map(byRef.value);
    refs.forEach((ref, i) => {
      next.set(ref.ref, ref);
      const file = files[i];
      if (file && file.type.startsWith('image/') && typeof URL.createObjectURL === 'function') previews.set(ref.ref, URL.createObjectURL(file));
    });
    byRef.value = next;
  }

  /** An image's preview URL while this page lives, or null. */
  function previewOf(ref: string): string | null {
    return previews.get(ref) ?? null;
  }

  /** The reference as dropped, or a stand-in named "dropped file" when this page did not see it. */
  function get(ref: string): FileRef {
    return byRef.value.get(ref) ?? { ref, name: 'dropped file', size: 0, type: '' };
  }

  return { byRef, remember, get, previewOf };
});

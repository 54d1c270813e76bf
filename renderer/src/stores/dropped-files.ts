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

  /** Keeps what each reference is. */
  function remember(refs: readonly FileRef[]): void {
    const next = new Map(byRef.value);
    for (const ref of refs) next.set(ref.ref, ref);
    byRef.value = next;
  }

  /** The reference as dropped, or a stand-in named "dropped file" when this page did not see it. */
  function get(ref: string): FileRef {
    return byRef.value.get(ref) ?? { ref, name: 'dropped file', size: 0, type: '' };
  }

  return { byRef, remember, get };
});

/**
 * Files dropped onto the window (or an element): `isOver` is true while a drag carrying files is
 * over it, so a view can show "drop here", and `onFiles` gets the dropped files. Drags without
 * files (text, links) are left alone; a drop of files never lets the browser open the file
 * instead. Listeners go when the calling scope ends. A drop this takes is `preventDefault()`ed,
 * which is how the app's drop router (use-drop-router.ts) knows to leave it alone.
 */
import { onScopeDispose, readonly, shallowRef, type Ref } from 'vue';

export interface FileDrop {
  /** A drag with files is over the target. */
  isOver: Readonly<Ref<boolean>>;
}

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/** Listens on `target` (default: the window) for drags and drops of files. */
export function useFileDrop(target: EventTarget | null | undefined, onFiles: (files: File[]) => void): FileDrop {
  const on = target ?? window;
  const isOver = shallowRef(false);
  // dragenter/dragleave fire for every child crossed: count them so the state does not flicker.
  let depth = 0;

  const enter = (event: Event) => {
    if (!carriesFiles(event as DragEvent)) return;
    depth += 1;
    isOver.value = true;
  };
  const over = (event: Event) => {
    if (!carriesFiles(event as DragEvent)) return;
    // Without this the drop event never fires.
    event.preventDefault();
    if ((event as DragEvent).dataTransfer) (event as DragEvent).dataTransfer!.dropEffect = 'copy';
    isOver.value = true;
  };
  const leave = (event: Event) => {
    if (!carriesFiles(event as DragEvent)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) isOver.value = false;
  };
  const drop = (event: Event) => {
    const files = Array.from((event as DragEvent).dataTransfer?.files ?? []);
    depth = 0;
    isOver.value = false;
    if (files.length === 0) return;
    event.preventDefault();
    onFiles(files);
  };

  const listeners: Array<[string, (event: Event) => void]> = [
    ['dragenter', enter],
    ['dragover', over],
    ['dragleave', leave],
    ['drop', drop],
  ];
  for (const [name, listener] of listeners) on.addEventListener(name, listener);
  onScopeDispose(() => {
    for (const [name, listener] of listeners) on.removeEventListener(name, listener);
  });
  return { isOver: readonly(isOver) };
}

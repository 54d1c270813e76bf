/**
 * One drop, routed: files dropped anywhere in the app, on any view, get an offer of what they can
 * become (lib/drop-actions.ts). A view that takes drops itself (Files' window-wide upload, a
 * form's drop zone) keeps them: the router looks last, and leaves a drop someone already took
 * (`defaultPrevented`). Choosing an action turns the files into references the way every view
 * does (bridge/user-files.ts: the preload in Electron, staging to main in browser mode) and opens
 * the route that uses them. Drops nobody takes never let the browser open the file in place of
 * the app. For the app shell, set up before any view.
 */
import { onScopeDispose, shallowRef, type ShallowRef } from 'vue';
import type { Router } from 'vue-router';
import { dropOffer, dropRoute, type DropActionId, type DropOffer } from '../lib/drop-actions';
import { toWorkbenchError } from '../lib/errors';
import { fileRefsFrom } from '../bridge/user-files';
import { useWorkbench } from '../api';
import { useDroppedFilesStore } from '../stores/dropped-files';

export interface PendingDrop {
  files: File[];
  offer: DropOffer;
}

export interface DropRouter {
  /** The files waiting for a choice, and what fits them; null when nothing is offered. */
  pending: ShallowRef<PendingDrop | null>;
  /** While the chosen action prepares the files: how far (0–100). */
  preparing: ShallowRef<{ action: DropActionId; percent: number } | null>;
  /** Why the chosen action could not go ahead. */
  error: ShallowRef<string | null>;
  choose(action: DropActionId): Promise<void>;
  close(): void;
}

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

export function useDropRouter(options: { router: Router; target?: Window }): DropRouter {
  const target = options.target ?? window;
  const dropped = useDroppedFilesStore();
  const pending = shallowRef<PendingDrop | null>(null);
  const preparing = shallowRef<{ action: DropActionId; percent: number } | null>(null);
  const error = shallowRef<string | null>(null);
  let controller: AbortController | null = null;

  // Every view can be dropped on now: say "copy" rather than "not allowed".
  const over = (event: Event): void => {
    if (!carriesFiles(event as DragEvent)) return;
    event.preventDefault();
    if ((event as DragEvent).dataTransfer) (event as DragEvent).dataTransfer!.dropEffect = 'copy';
  };

  /** Runs after every other drop listener of the window: only what no view took is offered. */
  const decide = (event: Event): void => {
    const files = Array.from((event as DragEvent).dataTransfer?.files ?? []);
    if (event.defaultPrevented) return;
    if (files.length === 0) {
      if (carriesFiles(event as DragEvent)) event.preventDefault();
      return;
    }
    event.preventDefault();
    if (preparing.value) return;
    error.value = null;
    pending.value = { files, offer: dropOffer(files) };
  };

  // Listeners added while the event is at the window run in its bubbling turn there, after those
  // the views registered: re-adding `decide` here puts it last.
  const first = (): void => {
    target.removeEventListener('drop', decide);
    target.addEventListener('drop', decide);
  };

  target.addEventListener('dragover', over);
  target.addEventListener('drop', first, true);
  target.addEventListener('drop', decide);
  onScopeDispose(() => {
    controller?.abort();
    target.removeEventListener('dragover', over);
    target.removeEventListener('drop', first, true);
    target.removeEventListener('drop', decide);
  });

  async function choose(action: DropActionId): Promise<void> {
    const drop = pending.value;
    if (!drop || preparing.value || !drop.offer.actions.some((a) => a.id === action)) return;
    error.value = null;
    preparing.value = { action, percent: 0 };
    controller = new AbortController();
    const total = drop.files.reduce((sum, f) => sum + f.size, 0) || 1;
    const before = drop.files.map((f, i) => drop.files.slice(0, i).reduce((sum, g) => sum + g.size, 0));
    try {
      const refs = await fileRefsFrom(drop.files, {
        api: useWorkbench(),
        signal: controller.signal,
        onProgress: (p) => (preparing.value = { action, percent: Math.round((((before[p.index] ?? 0) + p.loaded) / total) * 100) }),
      });
      dropped.remember(refs);
      pending.value = null;
      await options.router.push(dropRoute(action, refs));
    } catch (err) {
      const e = toWorkbenchError(err);
      if (e.code !== 'cancelled') error.value = e.message;
    } finally {
      preparing.value = null;
      controller = null;
    }
  }

  /** Closes the offer (stopping a file still being prepared). */
  function close(): void {
    controller?.abort();
    pending.value = null;
    error.value = null;
  }

  return { pending, preparing, error, choose, close };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import { flushPromises } from '@vue/test-utils';
import { createMemoryHistory, type Router } from 'vue-router';
import type { WorkbenchApi } from '@shared/contract/api';
import type { VideoJob } from '@shared/families/videos/contract';
import { provideWorkbench } from '@/api';
import { createAppRouter } from '@/router';
import { askVideoNotificationPermission, useVideoNotifications } from '@/composables/use-video-notifications';
import { createNotifyClaims, setPageNotifier, type NotifyPermission, type PageNotifier } from '@/lib/page-notifications';

/** The page's Notification as the test sees it: what was shown, the permission, the asks. */
function fakeNotifier(permission: NotifyPermission = 'granted') {
  const shown: { title: string; body: string; tag: string; onClick: () => void }[] = [];
  const state = { permission, asked: 0 };
  const notifier: PageNotifier = {
    permission: () => state.permission,
    requestPermission: async () => {
      state.asked += 1;
      state.permission = 'granted';
      return state.permission;
    },
    show: (title, o) => void shown.push({ title, ...o }),
  };
  return { notifier, shown, state };
}

/** Two "tabs" of one page share main: each gets every `videos.changed`. */
function fakeApi(shell: 'browser' | 'electron') {
  const listeners = new Set<(job: VideoJob) => void>();
  const api = {
    app: { info: async () => ({ shell }) },
    videos: {
      onChanged: (cb: (job: VideoJob) => void) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
    },
  } as unknown as WorkbenchApi;
  return { api, emit: (job: VideoJob) => listeners.forEach((cb) => cb(job)) };
}

function job(over: Partial<VideoJob> = {}): VideoJob {
  return {
    id: 'job_1', cardId: 'card_1', mode: 'generate', state: 'pending', connectionId: 'sandbox', model: 'svc-video-1', prompt: 'a cat surfing',
    duration: 8, aspectRatio: null, resolution: null, inputs: [], requestId: 'r1', progress: 40, createdAt: 1, updatedAt: 1, finishedAt: null,
    costTicks: null, error: null, storageError: null, fileOutput: null, video: null, runId: null, attempt: 1, nextPollAt: null, waiting: null, request: null, ...over,
  };
}

let scopes: EffectScope[] = [];
let router: Router;
beforeEach(async () => {
  localStorage.clear();
  router = createAppRouter(createMemoryHistory());
  await router.push('/chat');
});
afterEach(() => {
  scopes.forEach((s) => s.stop());
  scopes = [];
  setPageNotifier(null);
});

function tab(): void {
  const scope = effectScope();
  scopes.push(scope);
  scope.run(() => useVideoNotifications({ router, claims: createNotifyClaims({ locks: null }) }));
}

describe('use-video-notifications', () => {
  it('notifies once per job when it finishes, and a click opens the job centre', async () => {
    const { notifier, shown } = fakeNotifier();
    setPageNotifier(notifier);
    const { api, emit } = fakeApi('browser');
    provideWorkbench(api);
    tab();
    await flushPromises();
    emit(job({ state: 'pending' }));
    emit(job({ state: 'done', progress: 100 }));
    emit(job({ state: 'done', progress: 100, updatedAt: 2 }));
    emit(job({ id: 'job_2', state: 'failed', error: { code: 'api_error', message: 'boom', serviceCode: 'internal_error', reason: 'The service failed while making the video.' } }));
    expect(shown.map((s) => [s.title, s.body])).toEqual([
      ['Video ready', '“a cat surfing” is ready to play.'],
      ['Video failed', 'The service failed while making the video.'],
    ]);
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    shown[0]!.onClick();
    expect(focus).toHaveBeenCalled();
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/videos'), { timeout: 5000 });
  });

  it('notifies from one tab only when two tabs see the same event', async () => {
    const { notifier, shown } = fakeNotifier();
    setPageNotifier(notifier);
    const { api, emit } = fakeApi('browser');
    provideWorkbench(api);
    tab();
    tab();
    await flushPromises();
    emit(job({ state: 'moderated' }));
    expect(shown.map((s) => s.title)).toEqual(['Video withheld by moderation']);
  });

  it('stays silent in Electron (main notifies) and when permission was refused', async () => {
    const electron = fakeNotifier();
    setPageNotifier(electron.notifier);
    const e = fakeApi('electron');
    provideWorkbench(e.api);
    tab();
    await flushPromises();
    e.emit(job({ state: 'done' }));
    expect(electron.shown).toEqual([]);

    const denied = fakeNotifier('denied');
    setPageNotifier(denied.notifier);
    const b = fakeApi('browser');
    provideWorkbench(b.api);
    tab();
    await flushPromises();
    b.emit(job({ id: 'job_9', state: 'expired' }));
    expect(denied.shown).toEqual([]);
  });

  it('asks for permission when first asked to (a create), not before, and only once', async () => {
    const { notifier, state } = fakeNotifier('default');
    setPageNotifier(notifier);
    provideWorkbench(fakeApi('browser').api);
    tab();
    await flushPromises();
    expect(state.asked).toBe(0);
    await askVideoNotificationPermission();
    await askVideoNotificationPermission();
    expect(state.asked).toBe(1);
  });
});

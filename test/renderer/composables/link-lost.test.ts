/**
 * A page cut off from the workbench process (the process restarted, the socket dropped, the token
 * refused): it says what it shows may be out of date, its clocks stand still, and it catches up
 * when the link is back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { effectScope, nextTick, shallowRef } from 'vue';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import PrimeVue from 'primevue/config';
import type { WorkbenchApi } from '@shared/contract/api';
import type { VideoJob } from '@shared/families/videos/contract';
import { provideWorkbench, type LinkStatus } from '@/api';
import { onLinkRegained } from '@/composables/use-link-regained';
import { useVideoJobsStore } from '@/families/videos/stores/video-jobs';
import { useHistoryStore } from '@/stores/history';
import { makeRecord } from '../fake-data';
import ElapsedTime from '@/families/videos/components/ElapsedTime.vue';
import BridgeStatus from '@/components/BridgeStatus.vue';
import { UNAUTHORIZED_MESSAGE } from '@/bridge/ws-transport';
import { NOW, makeVideoJob } from '../components/videos/video-job-data';

const link = shallowRef<LinkStatus>('connecting');
let list: VideoJob[];
let listCalls: number;

beforeEach(() => {
  link.value = 'connecting';
  list = [];
  listCalls = 0;
  provideWorkbench(
    {
      videos: {
        list: async () => (listCalls++, list),
        onChanged: () => () => {},
      },
    } as unknown as WorkbenchApi,
    link,
  );
  setActivePinia(createPinia());
});

afterEach(() => {
  vi.useRealTimers();
});

describe('onLinkRegained()', () => {
  it('is not called for the first connection, but after every loss (dropped, refused, no token) once connected again', async () => {
    const scope = effectScope();
    const calls: string[] = [];
    scope.run(() => onLinkRegained(() => calls.push(link.value)));
    link.value = 'connected';
    await nextTick();
    expect(calls).toEqual([]);
    for (const lost of ['disconnected', 'unauthorized', 'no-token'] as const) {
      link.value = lost;
      await nextTick();
      link.value = 'connecting';
      await nextTick();
      link.value = 'connected';
      await nextTick();
    }
    expect(calls).toHaveLength(3);
    scope.stop();
  });

  it('is called when a page that started refused (F5 with a stale token) is given the new one', async () => {
    const scope = effectScope();
    let calls = 0;
    link.value = 'unauthorized';
    scope.run(() => onLinkRegained(() => calls++));
    link.value = 'connecting';
    await nextTick();
    link.value = 'connected';
    await nextTick();
    expect(calls).toBe(1);
    scope.stop();
  });
});

describe('the video job cards catch up', () => {
  it('read the list again when the link is back: a job that finished meanwhile shows done', async () => {
    link.value = 'connected';
    list = [makeVideoJob({ progress: 13 })];
    const jobs = useVideoJobsStore();
    await jobs.load();
    expect(jobs.cards[0]!.state).toBe('pending');
    link.value = 'disconnected';
    await nextTick();
    list = [makeVideoJob({ state: 'done', progress: 100, finishedAt: NOW, updatedAt: NOW + 1 })];
    link.value = 'unauthorized';
    await nextTick();
    expect(listCalls).toBe(1);
    link.value = 'connected';
    await flushPromises();
    expect(listCalls).toBe(2);
    expect(jobs.cards[0]!.state).toBe('done');
  });
});

describe('History catches up', () => {
  it('reads the list and the open entry again; an entry that could not open while refused opens', async () => {
    const pending = makeRecord({ id: 'run-a', status: 'pending' });
    let stored = pending;
    let refused = false;
    const calls: string[] = [];
    provideWorkbench(
      {
        history: {
          search: async () => (calls.push('search'), { items: [stored], nextCursor: null }),
          get: async ({ id }: { id: string }) => {
            calls.push(`get ${id}`);
            if (refused) throw new Error('refused');
            return stored;
          },
        },
        jobs: { onChanged: () => () => {} },
      } as unknown as WorkbenchApi,
      link,
    );
    link.value = 'connected';
    const history = useHistoryStore();
    await history.search();
    await history.open('run-a');
    expect(history.current?.status).toBe('pending');
    link.value = 'unauthorized';
    await nextTick();
    refused = true;
    await history.open('run-a');
    expect(history.currentError).not.toBeNull();
    refused = false;
    stored = { ...pending, status: 'completed' };
    calls.length = 0;
    link.value = 'connected';
    await flushPromises();
    expect(calls).toEqual(['search', 'get run-a']);
    expect(history.current?.status).toBe('completed');
    expect(history.currentError).toBeNull();
    expect(history.items[0]!.status).toBe('completed');
  });
});

describe('ElapsedTime', () => {
  it('stands still while the link is lost and picks up the real time when it is back', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: NOW });
    link.value = 'connected';
    const w = mount(ElapsedTime, { props: { from: NOW - 65_000, to: null } });
    expect(w.text()).toBe('1:05');
    vi.advanceTimersByTime(2000);
    await nextTick();
    expect(w.text()).toBe('1:07');
    link.value = 'disconnected';
    await nextTick();
    vi.advanceTimersByTime(10_000);
    await nextTick();
    expect(w.text()).toBe('1:07');
    expect(w.classes()).toContain('paused');
    expect(w.attributes('title')).toMatch(/Paused/);
    link.value = 'connected';
    await nextTick();
    expect(w.text()).toBe('1:17');
    expect(w.classes()).not.toContain('paused');
    vi.advanceTimersByTime(1000);
    await nextTick();
    expect(w.text()).toBe('1:18');
    w.unmount();
  });
});

describe('BridgeStatus', () => {
  const mountBanner = () => mount(BridgeStatus, { global: { plugins: [[PrimeVue, { theme: 'none' }]] } });

  it('says a page that lost its link may show stale data, and since when; and what to do once the token is refused', async () => {
    link.value = 'connected';
    const w = mountBanner();
    expect(w.text()).toBe('');
    link.value = 'disconnected';
    await nextTick();
    expect(w.text()).toMatch(/Disconnected from the workbench process/);
    expect(w.text()).toMatch(/may be out of date/);
    expect(w.find('[data-stale="true"]').exists()).toBe(true);
    link.value = 'unauthorized';
    await nextTick();
    expect(w.text()).toContain(UNAUTHORIZED_MESSAGE);
    expect(w.text()).toMatch(/may be out of date/);
    link.value = 'connected';
    await nextTick();
    expect(w.text()).toBe('');
    expect(w.find('[data-stale="true"]').exists()).toBe(false);
    w.unmount();
  });

  it('on a reload with a refused token (nothing shown yet), says only what to do', async () => {
    link.value = 'connecting';
    const w = mountBanner();
    link.value = 'unauthorized';
    await nextTick();
    expect(w.text()).toContain('Open the link `npm start` printed');
    expect(w.text()).not.toMatch(/out of date/);
    w.unmount();
  });
});

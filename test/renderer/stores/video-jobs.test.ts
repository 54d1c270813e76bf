import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import type { WorkbenchApi } from '@shared/contract/api';
import type { VideoJob } from '@shared/families/videos/contract';
import { provideWorkbench } from '@/api';
import { useVideoJobsStore } from '@/families/videos/stores/video-jobs';
import { NOW, makeVideoJob } from '../components/videos/video-job-data';

let emit: (job: VideoJob) => void;
let list: VideoJob[];
const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  list = [];
  const listeners = new Set<(job: VideoJob) => void>();
  emit = (job) => listeners.forEach((cb) => cb(job));
  provideWorkbench({
    videos: {
      list: async () => list,
      retry: async ({ id }: { id: string }) => (calls.push(`retry ${id}`), makeVideoJob({ id: 'job_2', state: 'creating', createdAt: NOW + 1 })),
      dismiss: async ({ id }: { id: string }) => (calls.push(`dismiss ${id}`), { dismissed: true }),
      onChanged: (cb: (job: VideoJob) => void) => (listeners.add(cb), () => listeners.delete(cb)),
    },
  } as unknown as WorkbenchApi);
  setActivePinia(createPinia());
});

describe('video-jobs store', () => {
  it('keeps one card per cardId: Retry’s new job replaces the failed one there, and a late event of the old one does not come back', async () => {
    const jobs = useVideoJobsStore();
    list = [makeVideoJob({ state: 'failed', finishedAt: NOW })];
    await jobs.load();
    await jobs.retry('job_1');
    expect(calls).toEqual(['retry job_1']);
    expect(jobs.cards.map((j) => [j.id, j.state])).toEqual([['job_2', 'creating']]);
    emit(makeVideoJob({ state: 'failed', finishedAt: NOW, updatedAt: NOW + 5 }));
    expect(jobs.cards.map((j) => j.id)).toEqual(['job_2']);
  });

  it('follows videos.changed, newest card first, and keeps an event newer than the list it raced with', async () => {
    const jobs = useVideoJobsStore();
    list = [makeVideoJob({ progress: 10, updatedAt: NOW })];
    const loading = jobs.load();
    // Arrives while the list is out: it is newer than what the list says.
    emit(makeVideoJob({ progress: 60, updatedAt: NOW + 10 }));
    await loading;
    expect(jobs.cards[0]!.progress).toBe(60);
    emit(makeVideoJob({ id: 'job_9', cardId: 'card_9', createdAt: NOW + 50 }));
    expect(jobs.cards.map((j) => j.id)).toEqual(['job_9', 'job_1']);
  });

  it('dismisses a card at once and does not bring it back on a later event; puts it back if main refuses', async () => {
    const jobs = useVideoJobsStore();
    const done = makeVideoJob({ state: 'done', finishedAt: NOW });
    emit(done);
    await jobs.dismiss(done);
    expect(calls).toEqual(['dismiss job_1']);
    emit({ ...done, updatedAt: NOW + 1 });
    expect(jobs.cards).toEqual([]);

    const other = makeVideoJob({ id: 'job_5', cardId: 'card_5', state: 'done' });
    emit(other);
    const api = (await import('@/api')).useWorkbench();
    api.videos.dismiss = vi.fn(async () => Promise.reject(new Error('disk full'))) as typeof api.videos.dismiss;
    await expect(jobs.dismiss(other)).rejects.toThrow('disk full');
    expect(jobs.cards.map((j) => j.id)).toEqual(['job_5']);
  });
});

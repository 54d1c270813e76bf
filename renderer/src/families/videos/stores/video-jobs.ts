/**
 * The job centre's cards: video jobs from main (`videos.list`, newest first), kept live by
 * `videos.changed`. A card is a `cardId`: Retry makes a new job on the same card, which replaces
 * the old one there. Jobs live in main, so a reload finds each one where it is.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { VideoCreateInput, VideoJob, VideoJobState } from '@shared/families/videos/contract';
import { useWorkbench } from '../../../api';
import { useWorkbenchEvent } from '../../../composables/use-workbench-event';
import { onLinkRegained } from '../../../composables/use-link-regained';
import { toWorkbenchError } from '../../../lib/errors';

/** States after which nothing more happens to a job. */
export const FINISHED_STATES: readonly VideoJobState[] = ['done', 'failed', 'moderated', 'expired', 'cancelled'];

export function isFinished(job: Pick<VideoJob, 'state'>): boolean {
  return FINISHED_STATES.includes(job.state);
}

/** HTTP statuses that refuse the request itself: sent again unchanged, it gets the same answer. */
const REQUEST_REFUSED = new Set([400, 413, 415, 422]);

/**
 * Whether a finished job should be edited rather than retried: the service refused the request
 * (400/422 and the like, a video failed with `invalid_argument`), or its moderation stopped it.
 */
export function needsEdit(job: Pick<VideoJob, 'state' | 'error'>): boolean {
  if (job.state === 'moderated') return true;
  if (job.state !== 'failed' || !job.error) return false;
  return (job.error.status !== undefined && REQUEST_REFUSED.has(job.error.status)) || job.error.serviceCode === 'invalid_argument' || job.error.code === 'invalid_input';
}

/** One job per card (the newest), cards newest first. */
function toCards(jobs: readonly VideoJob[]): VideoJob[] {
  const byCard = new Map<string, VideoJob>();
  for (const job of jobs) {
    const held = byCard.get(job.cardId);
    if (!held || job.createdAt > held.createdAt || (job.createdAt === held.createdAt && job.updatedAt >= held.updatedAt)) byCard.set(job.cardId, job);
  }
  return [...byCard.values()].sort((a, b) => b.createdAt - a.createdAt);
}

export const useVideoJobsStore = defineStore('video-jobs', () => {
  const jobs = shallowRef<VideoJob[]>([]);
  const loaded = ref(false);
  const error = shallowRef<WorkbenchError | null>(null);
  /** Cards the user dismissed while the call was out: not brought back by a late event. */
  const dismissed = new Set<string>();

  const cards = computed(() => toCards(jobs.value));

  function upsert(job: VideoJob): void {
    if (dismissed.has(job.cardId)) return;
    const rest = jobs.value.filter((j) => j.id !== job.id && j.cardId !== job.cardId);
    const held = jobs.value.find((j) => j.cardId === job.cardId);
    // An older job of the card (a late event for the attempt Retry replaced) does not come back.
    if (held && held.id !== job.id && held.createdAt > job.createdAt) return;
    jobs.value = [job, ...rest];
  }

  /** Reads the list from main. */
  async function load(): Promise<void> {
    try {
      const list = await useWorkbench().videos.list({ limit: 100 });
      // Events that arrived while the list was out are newer than what it says.
      const newer = new Map(jobs.value.map((j) => [j.id, j]));
      jobs.value = list.map((j) => {
        const seen = newer.get(j.id);
        return seen && seen.updatedAt > j.updatedAt ? seen : j;
      });
      for (const seen of newer.values()) if (!list.some((j) => j.id === seen.id)) upsert(seen);
      error.value = null;
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      loaded.value = true;
    }
  }

  // For as long as the store lives (the page): a card changes wherever the user is.
  useWorkbenchEvent('videos', 'changed', upsert);
  // Cut off from main (a restart, a dropped socket), the cards missed their events: read them again.
  onLinkRegained(() => loaded.value && void load());

  /** Sends a new job; the card appears at once (main answers once the job is written). */
  async function create(input: VideoCreateInput): Promise<VideoJob> {
    const job = await useWorkbench().videos.create(input);
    upsert(job);
    return job;
  }

  async function cancel(id: string): Promise<void> {
    upsert(await useWorkbench().videos.cancel({ id }));
  }

  async function retry(id: string): Promise<void> {
    upsert(await useWorkbench().videos.retry({ id }));
  }

  async function dismiss(job: VideoJob): Promise<void> {
    dismissed.add(job.cardId);
    jobs.value = jobs.value.filter((j) => j.cardId !== job.cardId);
    try {
      await useWorkbench().videos.dismiss({ id: job.id });
    } catch (err) {
      dismissed.delete(job.cardId);
      upsert(job);
      throw err;
    }
  }

  return { jobs, cards, loaded, error, load, create, cancel, retry, dismiss, upsert };
});

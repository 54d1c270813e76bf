/**
 * Whether History shows a run as a live session (tracks, figures, timeline): its endpoint's
 * shape says 'session', or — for an endpoint this build does not know at all (a voice family
 * recorded by a newer build, or not yet described) — main has a session recording for it.
 * Only those unknown runs cost a `history.session` probe; every described run is decided by
 * its descriptor alone.
 */
import { computed, ref, watch } from 'vue';
import type { RunRecord } from '@shared/contract/runs';
import { entryShapeOf, familyOfEndpoint } from '@shared/families';
import { useWorkbench } from '../api';

export function useSessionEntry(record: () => RunRecord | null) {
  /** Runs of unknown endpoints main answered `history.session` for. */
  const probed = ref(new Set<string>());
  watch(
    () => record()?.id,
    async (id) => {
      const r = record();
      if (!id || !r || familyOfEndpoint(r.endpoint) !== null || probed.value.has(id)) return;
      try {
        await useWorkbench().history.session({ id });
        probed.value = new Set(probed.value).add(id);
      } catch {
        // Not a session (or unreadable): the text layout shows it as before.
      }
    },
    { immediate: true },
  );
  return computed(() => {
    const r = record();
    return !!r && (entryShapeOf(r.endpoint) === 'session' || probed.value.has(r.id));
  });
}

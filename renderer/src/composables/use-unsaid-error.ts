/**
 * An error as a place on screen should show it: null when it only repeats what the access-token
 * banner at the top (BridgeStatus) already says, so a refused or missing token is said once.
 *
 *   const shown = useUnsaidError(() => store.error);
 *   <small v-if="shown">Could not load: {{ shown.message }}</small>
 */
import { computed, type ComputedRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import { useLinkStatus } from '../api';
import { isSaidByLinkBanner } from '../lib/errors';

export function useUnsaidError(error: () => WorkbenchError | null | undefined): ComputedRef<WorkbenchError | null> {
  const link = useLinkStatus();
  return computed(() => {
    const e = error() ?? null;
    return e && !isSaidByLinkBanner(e, link.value) ? e : null;
  });
}

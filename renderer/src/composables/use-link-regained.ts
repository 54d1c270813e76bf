/**
 * Catching up after the link to the workbench process comes back. While the page was cut off
 * (the process restarted, the token was refused, the socket dropped) it missed every event, and
 * the calls it made failed; a store that shows main's data re-reads it here:
 *
 *   onLinkRegained(() => loaded.value && void load());
 *
 * Called in a store's setup or a component's (the watch ends with that scope). Not called for
 * the page's first connection: the first loads are under way then.
 */
import { watch } from 'vue';
import { useLinkStatus, type LinkStatus } from '../api';

/** The states in which the page hears nothing from main (what it shows may be stale). */
export function isLinkLost(status: LinkStatus): boolean {
  return status === 'disconnected' || status === 'unauthorized' || status === 'no-token';
}

export function onLinkRegained(callback: () => void): void {
  const link = useLinkStatus();
  let lost = isLinkLost(link.value);
  watch(link, (status) => {
    if (isLinkLost(status)) lost = true;
    else if (status === 'connected' && lost) {
      lost = false;
      callback();
    }
  });
}

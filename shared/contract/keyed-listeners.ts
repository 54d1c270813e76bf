/**
 * The page's side of keyed events (define.ts `keyedEvent`), shared by both transports: local
 * listeners per channel and key, counted so that main is asked (`ops.subscribe`) once per key
 * however many listeners the page has, and told (`ops.unsubscribe`) when the last one goes.
 */

type Listener = (payload: unknown) => void;

export class KeyedListeners {
  private readonly byChannel = new Map<string, Map<string, Set<Listener>>>();

  /** Adds `listener`; `first` says main must be asked for this key. `remove` answers true for the last listener of its key. */
  add(channel: string, key: string, listener: Listener): { first: boolean; remove(): boolean } {
    let keys = this.byChannel.get(channel);
    if (!keys) this.byChannel.set(channel, (keys = new Map()));
    let set = keys.get(key);
    const first = !set;
    if (!set) keys.set(key, (set = new Set()));
    // One entry per add, even for the same function added twice: each unsubscribe removes its own.
    const own: Listener = (payload) => listener(payload);
    set.add(own);
    let removed = false;
    return {
      first,
      remove: () => {
        if (removed) return false;
        removed = true;
        set.delete(own);
        if (set.size > 0) return false;
        keys.delete(key);
        if (keys.size === 0) this.byChannel.delete(channel);
        return true;
      },
    };
  }

  /** Hands `payload` to the listeners of `channel`/`key`; a throwing listener does not starve the others. */
  dispatch(channel: string, key: string, payload: unknown): void {
    for (const listener of [...(this.byChannel.get(channel)?.get(key) ?? [])]) {
      try {
        listener(payload);
      } catch (err) {
        // Surfaced like an uncaught error (an unhandled rejection), after the others ran.
        void Promise.reject(err);
      }
    }
  }

  hasChannel(channel: string): boolean {
    return this.byChannel.has(channel);
  }

  /** Every channel and key someone listens to (to subscribe again on a new connection). */
  entries(): Array<{ channel: string; key: string }> {
    const out: Array<{ channel: string; key: string }> = [];
    for (const [channel, keys] of this.byChannel) for (const key of keys.keys()) out.push({ channel, key });
    return out;
  }
}

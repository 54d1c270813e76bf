/**
 * Who receives each keyed event: per channel and key, the windows/tabs that asked for it
 * (`ops.subscribe`). A window's subscriptions go with it (detach, reload, a new socket), and one
 * window holds at most `limit` at once, so a page cannot grow main's memory without bound.
 */
import type { WorkbenchError } from '../../shared/contract/errors';

export class KeyedSubscriptions<S> {
  private readonly byChannel = new Map<string, Map<string, Set<S>>>();
  private readonly bySession = new Map<S, Set<string>>();

  /**
   * @param channels the contract's keyed event channels (anything else is refused)
   * @param limit subscriptions one window/tab may hold at once
   */
  constructor(
    private readonly channels: ReadonlySet<string>,
    private readonly limit = 1024,
  ) {}

  subscribe(session: S, channel: string, key: string): WorkbenchError | null {
    if (!this.channels.has(channel)) {
      return { code: 'invalid_input', message: `${channel} is not an event that takes a key.`, issues: [{ path: 'channel', message: 'not a keyed event' }] };
    }
    let own = this.bySession.get(session);
    const id = `${channel}\u0000${key}`;
    if (own?.has(id)) return null;
    if ((own?.size ?? 0) >= this.limit) {
      return { code: 'invalid_input', message: `This window already follows ${this.limit} keyed events; unsubscribe from some first.` };
    }
    if (!own) this.bySession.set(session, (own = new Set()));
    own.add(id);
    let keys = this.byChannel.get(channel);
    if (!keys) this.byChannel.set(channel, (keys = new Map()));
    let sessions = keys.get(key);
    if (!sessions) keys.set(key, (sessions = new Set()));
    sessions.add(session);
    return null;
  }

  unsubscribe(session: S, channel: string, key: string): void {
    const own = this.bySession.get(session);
    if (!own?.delete(`${channel}\u0000${key}`)) return;
    if (own.size === 0) this.bySession.delete(session);
    const keys = this.byChannel.get(channel);
    const sessions = keys?.get(key);
    sessions?.delete(session);
    if (sessions?.size === 0) keys?.delete(key);
    if (keys?.size === 0) this.byChannel.delete(channel);
  }

  /** The window/tab went away (or reloaded): it follows nothing any more. */
  drop(session: S): void {
    for (const id of [...(this.bySession.get(session) ?? [])]) {
      const cut = id.indexOf('\u0000');
      this.unsubscribe(session, id.slice(0, cut), id.slice(cut + 1));
    }
  }

  subscribers(channel: string, key: string): S[] {
    return [...(this.byChannel.get(channel)?.get(key) ?? [])];
  }

  /** Subscriptions held (all windows): for tests and diagnostics. */
  size(): number {
    let n = 0;
    for (const own of this.bySession.values()) n += own.size;
    return n;
  }
}

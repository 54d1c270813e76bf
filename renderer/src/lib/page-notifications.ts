/**
 * The page's desktop notifications (browser mode; Electron's main notifies itself), wrapped so
 * tests can stand in for the browser's `Notification` and so one tab of several speaks:
 *
 * - `pageNotifier()`: permission, asking for it, showing one notification with a click action.
 * - `createNotifyClaims()`: whether this tab may notify about a key. With Web Locks, the tab
 *   holding the `workbench-notifier` lock is the one that speaks (the next tab takes over when it
 *   closes); every tab also records what was notified in localStorage, so a key is claimed once
 *   across tabs and reloads.
 */

export type NotifyPermission = 'default' | 'granted' | 'denied' | 'unsupported';

export interface PageNotifier {
  permission(): NotifyPermission;
  requestPermission(): Promise<NotifyPermission>;
  show(title: string, options: { body: string; tag: string; onClick: () => void }): void;
}

type NotificationCtor = {
  new (title: string, options?: { body?: string; tag?: string }): { onclick: ((this: unknown, ev: Event) => unknown) | null; close(): void };
  permission: NotifyPermission;
  requestPermission(): Promise<NotifyPermission>;
};

function browserNotifier(): PageNotifier {
  const api = (globalThis as { Notification?: NotificationCtor }).Notification;
  return {
    permission: () => (api ? api.permission : 'unsupported'),
    requestPermission: async () => (api ? api.requestPermission() : 'unsupported'),
    show(title, { body, tag, onClick }) {
      if (!api || api.permission !== 'granted') return;
      const shown = new api(title, { body, tag });
      shown.onclick = () => {
        onClick();
        shown.close();
      };
    },
  };
}

let current: PageNotifier | null = null;

/** The notifier in use (the browser's, unless a test set another). */
export function pageNotifier(): PageNotifier {
  return (current ??= browserNotifier());
}

/** Replaces the notifier (tests); null goes back to the browser's. */
export function setPageNotifier(notifier: PageNotifier | null): void {
  current = notifier;
}

/** The part of `navigator.locks` used here. */
export interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

export interface NotifyClaims {
  /** True once for `key` across tabs, and only in the tab that speaks. */
  claim(key: string): boolean;
  /** Gives up speaking (the next tab takes over). */
  dispose(): void;
}

const RECORD_KEY = 'workbench.notified';
const RECORD_MAX = 200;

function readRecord(storage: Storage | undefined, fallback: string[]): string[] {
  try {
    const parsed = JSON.parse(storage?.getItem(RECORD_KEY) ?? 'null') as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : fallback;
  } catch {
    return fallback;
  }
}

export function createNotifyClaims(options: { locks?: LockManagerLike | null; storage?: Storage | null } = {}): NotifyClaims {
  const locks = options.locks === undefined ? ((globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? null) : options.locks;
  const storage = options.storage === undefined ? globalThis.localStorage : (options.storage ?? undefined);
  let leader = !locks;
  let release: (() => void) | null = null;
  let memory: string[] = [];
  if (locks) {
    void locks
      .request(
        'workbench-notifier',
        () =>
          new Promise<void>((resolve) => {
            leader = true;
            release = resolve;
          }),
      )
      .catch(() => (leader = true));
  }
  return {
    claim(key) {
      if (!leader) return false;
      const record = readRecord(storage, memory);
      if (record.includes(key)) return false;
      memory = [...record, key].slice(-RECORD_MAX);
      try {
        storage?.setItem(RECORD_KEY, JSON.stringify(memory));
      } catch {
        // A full or blocked storage: this tab still remembers.
      }
      return true;
    },
    dispose() {
      leader = false;
      release?.();
    },
  };
}

/**
 * Deferred chat completions: `deferred: true` stores the finished completion under a request id;
 * polling answers 202 until `deferredDelayMs` has passed on the sandbox clock, then 200 with it.
 * Ids are scoped to the team that created them; another team's poll is a 404.
 *
 * Creates are idempotent by `Idempotency-Key`: the same key from the same team within 24 hours
 * (sandbox clock) gets the first create's request id back and creates nothing; the same key with
 * a different body is a conflict.
 */
import { randomUUID } from 'node:crypto';
import { list, num, obj, str } from './state/shape';

interface Entry {
  team: string;
  /** When it was created and when it is ready, in ms on the sandbox clock. */
  createdMs: number;
  readyAt: number;
  result: unknown;
}

interface KeyedCreate {
  id: string;
  at: number;
  /** The request body as sent, to tell a retry from a different request under the same key. */
  body: string;
}

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type KeyLookup = { found: 'none' } | { found: 'same'; id: string } | { found: 'conflict' };

export type DeferredState = { state: 'pending' } | { state: 'done'; result: unknown } | { state: 'unknown' };

export class DeferredStore {
  private readonly entries = new Map<string, Entry>();
  private readonly keys = new Map<string, KeyedCreate>();
  private readonly maxEntries: number;
  /**
   * Called after every change worth saving (the state folder's snapshot); `created` when the
   * change handed the client a new id, which the state folder saves at once.
   */
  onChange: (created?: boolean) => void = () => undefined;

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  /** Stores a result made at `createdMs` that becomes visible at `readyAt` (ms); returns its request id. */
  add(team: string, createdMs: number, readyAt: number, result: unknown): string {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const id = randomUUID();
    this.entries.set(id, { team, createdMs, readyAt, result });
    this.onChange(true);
    return id;
  }

  /** The state of `id` for `team` at time `now` (ms). */
  get(id: string, team: string, now: number): DeferredState {
    const entry = this.entries.get(id);
    if (!entry || entry.team !== team) return { state: 'unknown' };
    return now >= entry.readyAt ? { state: 'done', result: entry.result } : { state: 'pending' };
  }

  /** What an earlier create under `key` from `team` made, if it is still remembered at `now`. */
  lookupKey(team: string, key: string, body: string, now: number): KeyLookup {
    const slot = `${team}\n${key}`;
    const seen = this.keys.get(slot);
    if (!seen) return { found: 'none' };
    if (now - seen.at >= IDEMPOTENCY_WINDOW_MS) {
      this.keys.delete(slot);
      return { found: 'none' };
    }
    return seen.body === body ? { found: 'same', id: seen.id } : { found: 'conflict' };
  }

  /** Remembers that the create under `key` made request `id`. */
  rememberKey(team: string, key: string, body: string, id: string, now: number): void {
    if (this.keys.size >= this.maxEntries) this.keys.delete(this.keys.keys().next().value as string);
    this.keys.set(`${team}\n${key}`, { id, at: now, body });
    this.onChange(true);
  }

  /**
   * Everything to keep across launches at `now`: the completions (pending and done, up to the
   * store's cap) and the Idempotency-Keys still inside their 24-hour window.
   */
  snapshot(now: number): unknown {
    return {
      entries: [...this.entries].map(([id, e]) => ({ id, team: e.team, createdMs: e.createdMs, readyAt: e.readyAt, result: e.result })),
      keys: [...this.keys].filter(([, k]) => now - k.at < IDEMPOTENCY_WINDOW_MS).map(([slot, k]) => ({ slot, id: k.id, at: k.at, body: k.body })),
    };
  }

  /** Replaces the contents with a snapshot() read back; throws on a malformed one. */
  restore(data: unknown): void {
    const root = obj(data, 'deferred snapshot');
    const entries = list(root.entries, 'entries').map((v) => {
      const e = obj(v, 'entry');
      if (!('result' in e)) throw new Error('an entry has no result');
      return [str(e, 'id'), { team: str(e, 'team'), createdMs: num(e, 'createdMs'), readyAt: num(e, 'readyAt'), result: e.result }] as const;
    });
    const keys = list(root.keys, 'keys').map((v) => {
      const k = obj(v, 'key');
      return [str(k, 'slot'), { id: str(k, 'id'), at: num(k, 'at'), body: str(k, 'body') }] as const;
    });
    this.clear();
    for (const [id, entry] of entries) this.entries.set(id, entry);
    for (const [slot, key] of keys) this.keys.set(slot, key);
  }

  clear(): void {
    this.entries.clear();
    this.keys.clear();
  }
}

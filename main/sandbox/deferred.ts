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

interface Entry {
  team: string;
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

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  /** Stores a result that becomes visible at `readyAt` (ms); returns its request id. */
  add(team: string, readyAt: number, result: unknown): string {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const id = randomUUID();
    this.entries.set(id, { team, readyAt, result });
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
  }

  clear(): void {
    this.entries.clear();
    this.keys.clear();
  }
}

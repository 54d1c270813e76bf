/**
 * Deferred chat completions: `deferred: true` stores the finished completion under a request id;
 * polling answers 202 until `deferredDelayMs` has passed on the sandbox clock, then 200 with it.
 * Ids are scoped to the team that created them; another team's poll is a 404.
 */
import { randomUUID } from 'node:crypto';

interface Entry {
  team: string;
  readyAt: number;
  result: unknown;
}

export type DeferredState = { state: 'pending' } | { state: 'done'; result: unknown } | { state: 'unknown' };

export class DeferredStore {
  private readonly entries = new Map<string, Entry>();
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

  clear(): void {
    this.entries.clear();
  }
}

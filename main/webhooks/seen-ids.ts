/**
 * The `webhook-id`s already handled, so a repeat (a retry whose 2xx was lost, or a replay inside the
 * 5-minute window) is answered 2xx and does nothing. An id is kept for twice the tolerance: after
 * that its timestamp is stale anyway. Bounded: past `max` ids the oldest go first.
 */
import { TOLERANCE_S } from './verify';

export class SeenIds {
  /** id -> when it was seen (ms); Map keeps insertion order, so the oldest come first. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly keepMs: number = 2 * TOLERANCE_S * 1000,
    private readonly max: number = 10_000,
  ) {}

  has(id: string): boolean {
    this.prune();
    return this.seen.has(id);
  }

  add(id: string): void {
    this.seen.delete(id);
    this.seen.set(id, this.now());
    this.prune();
  }

  /** Forgets `id` (its handling failed: a retry must be handled, not ignored). */
  delete(id: string): void {
    this.seen.delete(id);
  }

  get size(): number {
    return this.seen.size;
  }

  private prune(): void {
    const cutoff = this.now() - this.keepMs;
    for (const [id, at] of this.seen) {
      if (at > cutoff && this.seen.size <= this.max) break;
      this.seen.delete(id);
    }
  }
}

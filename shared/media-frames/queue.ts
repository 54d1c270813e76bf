/**
 * A real-time send queue: bounded in count and in time. Under load it drops the OLDEST frames
 * (a late audio frame is worth less than the one just made) and counts them; it never refuses a
 * push and never turns load into an error. A frame that waited longer than `maxAgeMs` is dropped
 * when it reaches the head, counted apart, so a stalled transport resumes with fresh audio instead
 * of replaying the past.
 */

export interface FrameQueueLimits {
  /** Frames held at most; a push beyond drops the oldest. */
  maxFrames: number;
  /** A frame older than this (by the queue's clock, from its push) is dropped instead of sent. */
  maxAgeMs: number;
}

/** 50 frames of 20 ms, and a quarter of a second: enough to ride out a hiccup, short enough to stay live. */
export const DEFAULT_FRAME_QUEUE_LIMITS: FrameQueueLimits = { maxFrames: 50, maxAgeMs: 250 };

export interface FrameQueueCounters {
  pushed: number;
  /** Taken off the head for sending. */
  taken: number;
  /** Dropped because the queue was full (oldest first). */
  droppedFull: number;
  /** Dropped because they waited longer than maxAgeMs. */
  droppedStale: number;
  /** Held now. */
  held: number;
  /** Most frames ever held at once. */
  highWater: number;
}

interface Entry<T> {
  item: T;
  at: number;
}

export class FrameQueue<T> {
  private readonly limits: FrameQueueLimits;
  /** A ring would save a shift; at 50 entries the array is simpler and as fast. */
  private readonly entries: Array<Entry<T>> = [];
  private readonly counters = { pushed: 0, taken: 0, droppedFull: 0, droppedStale: 0, highWater: 0 };

  constructor(
    limits: Partial<FrameQueueLimits> = {},
    private readonly now: () => number,
    /** Told about every dropped item (to release it, or to log the first drop). */
    private readonly onDrop?: (item: T, why: 'full' | 'stale') => void,
  ) {
    this.limits = { ...DEFAULT_FRAME_QUEUE_LIMITS, ...limits };
    if (!(this.limits.maxFrames >= 1)) throw new RangeError('A frame queue holds at least one frame.');
    if (!(this.limits.maxAgeMs > 0)) throw new RangeError('A frame queue keeps frames for more than 0 ms.');
  }

  push(item: T): void {
    this.counters.pushed++;
    while (this.entries.length >= this.limits.maxFrames) this.drop('full');
    this.entries.push({ item, at: this.now() });
    if (this.entries.length > this.counters.highWater) this.counters.highWater = this.entries.length;
  }

  /** The oldest frame still fresh enough to send, or undefined; stale ones on the way are dropped. */
  take(): T | undefined {
    this.expire();
    const entry = this.entries.shift();
    if (!entry) return undefined;
    this.counters.taken++;
    return entry.item;
  }

  /** Drops what is stale now (a sender may call it on a timer while its transport is stuck). */
  expire(): void {
    const limit = this.now() - this.limits.maxAgeMs;
    while (this.entries.length > 0 && this.entries[0].at < limit) this.drop('stale');
  }

  get size(): number {
    return this.entries.length;
  }

  /** Drops everything held (not counted as load: the caller chose to, e.g. a barge-in flush). */
  clear(): T[] {
    return this.entries.splice(0).map((e) => e.item);
  }

  stats(): FrameQueueCounters {
    return { ...this.counters, held: this.entries.length };
  }

  private drop(why: 'full' | 'stale'): void {
    const entry = this.entries.shift();
    if (!entry) return;
    if (why === 'full') this.counters.droppedFull++;
    else this.counters.droppedStale++;
    this.onDrop?.(entry.item, why);
  }
}

/**
 * A session's inbound messages as the handler's `AsyncIterable`: bounded, in order, single reader.
 * `push` resolves 'accepted' once the message is in the queue; while the queue is full it waits
 * until the handler reads (that wait is the answer the page's `send()` waits for, so a sender
 * cannot outrun a slow handler). `end` finishes the iterator after what was already pushed;
 * `abort` finishes it at once and drops the rest.
 */

export type PushOutcome = 'accepted' | 'closed' | 'ended' | 'overflow';

interface Waiting<T> {
  item: T;
  resolve(outcome: PushOutcome): void;
}

export class InboundQueue<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private readonly waiting: Waiting<T>[] = [];
  private reader: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;
  private finished = false;
  /** Most messages queued at once (for tests and diagnostics). */
  highWater = 0;

  /**
   * @param limit messages held for the handler before `push` starts waiting
   * @param maxWaiting pushes allowed to wait beyond that; more is a misbehaving page ('overflow')
   */
  constructor(
    private readonly limit: number,
    private readonly maxWaiting: number,
  ) {}

  push(item: T): Promise<PushOutcome> {
    if (this.finished) return Promise.resolve('ended');
    if (this.closed) return Promise.resolve('closed');
    if (this.reader) {
      const read = this.reader;
      this.reader = null;
      read({ value: item, done: false });
      return Promise.resolve('accepted');
    }
    if (this.queue.length < this.limit && this.waiting.length === 0) {
      this.enqueue(item);
      return Promise.resolve('accepted');
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve('overflow');
    return new Promise((resolve) => this.waiting.push({ item, resolve }));
  }

  /** The caller closed its side: the iterator ends once everything pushed so far is read. */
  end(): void {
    if (this.closed || this.finished) return;
    this.closed = true;
    this.wakeIfDone();
  }

  /** Cancelled or gone: the iterator ends now; waiting pushes learn the session ended. */
  abort(): void {
    if (this.finished) return;
    this.finished = true;
    this.queue.length = 0;
    for (const w of this.waiting.splice(0)) w.resolve('ended');
    const read = this.reader;
    this.reader = null;
    read?.({ value: undefined, done: true });
  }

  private enqueue(item: T): void {
    this.queue.push(item);
    this.highWater = Math.max(this.highWater, this.queue.length);
  }

  private wakeIfDone(): void {
    if (this.reader && this.queue.length === 0 && this.waiting.length === 0) {
      const read = this.reader;
      this.reader = null;
      this.finished = true;
      read({ value: undefined, done: true });
    }
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.queue.length > 0) {
      const value = this.queue.shift() as T;
      const next = this.waiting.shift();
      if (next) {
        this.enqueue(next.item);
        next.resolve('accepted');
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.finished || (this.closed && this.waiting.length === 0)) {
      this.finished = true;
      return Promise.resolve({ value: undefined, done: true });
    }
    if (this.reader) return Promise.reject(new Error('A session has one reader of its messages at a time.'));
    return new Promise((resolve) => (this.reader = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      // The handler stopped reading (break/return/throw): nothing more will be accepted.
      return: () => {
        this.abort();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

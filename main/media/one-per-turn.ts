/**
 * Reads an async source so that each heavy item gets an event-loop turn of its own. A socket's
 * queued events are read as one chain of microtasks (`for await` over a queue that is already
 * full never waits), which keeps timers and I/O out until the queue is empty; a realtime call's
 * microphone frame due meanwhile then goes out late. After each item `heavy` says so of (an
 * answer's audio delta: decoded and resampled for the device), the reader waits for the next
 * turn of the loop (setImmediate: timers and I/O due by then run first). Order is kept.
 */
export async function* onePerTurn<T>(source: AsyncIterable<T>, heavy: (item: T) => boolean): AsyncGenerator<T> {
  for await (const item of source) {
    yield item;
    if (heavy(item)) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

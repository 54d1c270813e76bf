// A realtime call reads the service's queued events one heavy item (an answer's audio delta) per
// turn of the event loop, so the microphone's timer gets in between (main/media/one-per-turn.ts).
// Order on one loop: what ran between the items, not how long anything took.
import { describe, expect, it } from 'vitest';
import { onePerTurn } from '../../../../main/media/one-per-turn';

/** A source whose items are all there at once, as a socket's queue after a burst. */
async function* queued<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function readWithTimerDue(items: string[], heavy: (item: string) => boolean): Promise<string[]> {
  const log: string[] = [];
  // Stands for the microphone's frame, due while the burst is read (re-armed each turn, as a timer).
  let ticks = 0;
  const tick = () => {
    log.push(`tick${ticks++}`);
    if (ticks < 10) setImmediate(tick);
  };
  setImmediate(tick);
  for await (const item of onePerTurn(queued(items), heavy)) log.push(item);
  return log;
}

describe('onePerTurn', () => {
  it('lets the loop run between heavy items, in order', async () => {
    const log = await readWithTimerDue(['d1', 'd2', 'd3'], () => true);
    expect(log.filter((l) => l.startsWith('d'))).toEqual(['d1', 'd2', 'd3']);
    // A tick between each pair of deltas: none of them waits for the whole burst.
    expect(log.indexOf('tick0')).toBeLessThan(log.indexOf('d2'));
    expect(log.slice(log.indexOf('d2'), log.indexOf('d3')).some((l) => l.startsWith('tick'))).toBe(true);
  });

  it('reads light items straight through (no turn given up for them)', async () => {
    const log = await readWithTimerDue(['e1', 'e2', 'd1', 'e3'], (item) => item.startsWith('d'));
    const items = log.filter((l) => !l.startsWith('tick'));
    expect(items).toEqual(['e1', 'e2', 'd1', 'e3']);
    // e1, e2 and d1 in one turn; the loop runs only after the delta.
    expect(log.indexOf('tick0')).toBeGreaterThan(log.indexOf('d1'));
    expect(log.indexOf('tick0')).toBeLessThan(log.indexOf('e3'));
  });
});

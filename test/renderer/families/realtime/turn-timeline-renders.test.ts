/**
 * The newest turn of a busy call gets new lanes every frame (an answer's fold grows): its timeline
 * redraws what changed (the growing fold's tick), not every tick of its server lane nor its level
 * trace (up to 200 samples, the same while none came).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import TurnTimeline from '@/families/realtime/components/TurnTimeline.vue';
import { EventLog } from '@/families/realtime/lib/event-log';
import { memoLanes, type LevelSample, type TurnTimeline as Turn } from '@/families/realtime/lib/latency-timeline';
import { mountWithApp, type Mounted } from '../../mount-app';
import { emptyTurn } from './turn-fixture';

// Positions and level heights worked out, counted: a tick or a trace drawn again asks for them again.
const calls = vi.hoisted(() => ({ percentAt: 0, levelHeight: 0 }));
vi.mock('@/families/realtime/lib/latency-timeline', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/families/realtime/lib/latency-timeline')>();
  return {
    ...original,
    percentAt: (...a: Parameters<typeof original.percentAt>) => {
      calls.percentAt++;
      return original.percentAt(...a);
    },
    levelHeight: (...a: Parameters<typeof original.levelHeight>) => {
      calls.levelHeight++;
      return original.levelHeight(...a);
    },
  };
});

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const turn: Turn = emptyTurn(1, 0, 10_000);

describe('TurnTimeline on a busy call', () => {
  it("redraws only the growing fold's tick, not the other ticks nor the level trace", async () => {
    const log = new EventLog({ maxRows: 1000 });
    let t = 0;
    for (let n = 0; n < 30; n++) {
      log.push({ t: (t += 10), direction: 'in', message: { type: 'response.created' } });
      log.push({ t: (t += 10), direction: 'in', message: { type: 'response.output_audio.delta', item_id: `i${n}` } });
      log.push({ t: (t += 10), direction: 'in', message: { type: 'response.done' } });
    }
    log.push({ t: (t += 10), direction: 'in', message: { type: 'response.output_audio.delta', item_id: 'last' } });
    const levels: LevelSample[] = Array.from({ length: 150 }, (_, i) => ({ t: i * 50, dbfs: -40 + (i % 20) }));
    const lanesOf = memoLanes();
    const timeline = (): Turn => lanesOf([turn], log.rows(), levels)[0]!;
    m = await mountWithApp(TurnTimeline, { props: { timeline: timeline() } });
    await flushPromises();
    const ticks = () => [...document.querySelectorAll('.lane .tick')];
    expect(ticks()).toHaveLength(91);
    expect(document.querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(150);

    calls.percentAt = 0;
    calls.levelHeight = 0;
    for (let f = 0; f < 5; f++) {
      log.push({ t: (t += 20), direction: 'in', message: { type: 'response.output_audio.delta', item_id: 'last' } });
      const next = timeline();
      expect(next.events).toHaveLength(91);
      await m.wrapper.setProps({ timeline: next });
      await flushPromises();
    }
    // The fold is drawn as a span that grew, with its count.
    expect(ticks().at(-1)!.getAttribute('title')).toBe('response.output_audio.delta ×6');
    expect(ticks().at(-1)!.classList.contains('span')).toBe(true);
    // Per frame: the growing tick (its start, its end, its start) only; the trace not at all.
    expect(calls.levelHeight).toBe(0);
    expect(calls.percentAt).toBe(5 * 3);

    // A new level sample does draw the trace again (the window is the same).
    levels.push({ t: 7_600, dbfs: -10 });
    await m.wrapper.setProps({ timeline: timeline() });
    await flushPromises();
    expect(calls.levelHeight).toBe(151);
    expect(document.querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(151);
  });
});

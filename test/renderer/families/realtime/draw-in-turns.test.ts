/**
 * drawInTurns: the parts of a busy view drawn one a frame, in turns, each only when it changed and
 * no more often than its least interval (a fake clock, frames and timers).
 */
import { describe, expect, it } from 'vitest';
import { drawInTurns } from '@/families/realtime/lib/draw-in-turns';

type Part = 'log' | 'state' | 'latency';

function harness(minIntervalMs: Partial<Record<Part, number>> = {}, onDraw?: (part: Part) => void) {
  let t = 0;
  const frames: Array<() => void> = [];
  const timers: Array<{ at: number; fn: () => void }> = [];
  const drawn: Array<[number, Part]> = [];
  const d = drawInTurns<Part>({
    parts: ['log', 'state', 'latency'],
    minIntervalMs,
    draw: (part) => {
      drawn.push([t, part]);
      onDraw?.(part);
    },
    now: () => t,
    frame: (fn) => frames.push(fn),
    later: (fn, ms) => timers.push({ at: t + ms, fn }),
  });
  /** One frame, 16 ms after the last: the timers due by then, then the frame's callbacks. */
  const frame = () => {
    t += 16;
    for (const timer of timers.filter((x) => x.at <= t)) {
      timers.splice(timers.indexOf(timer), 1);
      timer.fn();
    }
    for (const fn of frames.splice(0)) fn();
  };
  return { d, drawn, frame, frames, timers };
}

describe('drawInTurns', () => {
  it('draws one part a frame, in turns, each once however often it changed before its frame', () => {
    const h = harness();
    for (let i = 0; i < 50; i++) for (const part of ['latency', 'state', 'log'] as const) h.d.changed(part);
    expect(h.frames).toHaveLength(1);
    h.frame();
    h.frame();
    h.frame();
    expect(h.drawn.map(([, part]) => part)).toEqual(['log', 'state', 'latency']);
    // Nothing left: no frame asked for.
    expect(h.frames).toHaveLength(0);
    expect(h.timers).toHaveLength(0);
  });

  it('takes turns while every part keeps changing (none waits behind another), and draws a lone change in the next frame', () => {
    const h = harness();
    for (let f = 0; f < 6; f++) {
      h.d.changed('log');
      h.d.changed('state');
      h.frame();
    }
    expect(h.drawn.map(([, part]) => part)).toEqual(['log', 'state', 'log', 'state', 'log', 'state']);
    h.d.changed('latency');
    h.frame();
    expect(h.drawn.at(-1)).toEqual([112, 'latency']);
  });

  it('draws a part no more often than its least interval, with a timer (not a frame a frame) while only it waits', () => {
    const h = harness({ latency: 200 });
    h.d.changed('latency');
    h.frame();
    for (let f = 0; f < 30; f++) {
      h.d.changed('latency');
      h.d.changed('log');
      h.frame();
    }
    const latency = h.drawn.filter(([, part]) => part === 'latency').map(([t]) => t);
    expect(latency.length).toBeGreaterThan(1);
    for (let i = 1; i < latency.length; i++) expect(latency[i]! - latency[i - 1]!).toBeGreaterThanOrEqual(200);
    // The log was drawn in every frame the latency panel was not.
    expect(h.drawn.filter(([, part]) => part === 'log')).toHaveLength(31 - latency.length);
    // Only the latency panel left, drawn 200 ms after its last draw: no frame is asked for meanwhile.
    h.d.changed('latency');
    expect(h.frames).toHaveLength(0);
    expect(h.timers).toHaveLength(1);
    while (h.frames.length || h.timers.length) h.frame();
    expect(h.drawn.at(-1)![1]).toBe('latency');
    expect(h.drawn.at(-1)![0] - latency.at(-1)!).toBeGreaterThanOrEqual(200);
  });

  it('a part drawn may say another changed: that one is drawn in a later frame', () => {
    const h = harness({}, (part) => {
      if (part === 'log') h.d.changed('latency');
    });
    h.d.changed('log');
    h.frame();
    h.frame();
    expect(h.drawn.map(([, part]) => part)).toEqual(['log', 'latency']);
  });
});

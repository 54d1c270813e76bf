import { describe, expect, it } from 'vitest';
import { Resampler } from '@shared/audio/resampler';
import { PlaybackCore, handleCommand } from '@/audio/playback-core';

/** Renders `quanta` 128-frame quanta on two channels; returns the left channel joined. */
function render(core: PlaybackCore, quanta: number): Float32Array {
  const out = new Float32Array(quanta * 128);
  for (let q = 0; q < quanta; q++) {
    const outputs = [new Float32Array(128), new Float32Array(128)];
    core.render(outputs);
    expect(outputs[1]).toEqual(outputs[0]);
    out.set(outputs[0], q * 128);
  }
  return out;
}

describe('PlaybackCore', () => {
  it('renders 24 kHz audio at 48 kHz on every channel, exactly the resampled samples', () => {
    const core = new PlaybackCore(48000, 24000, 20);
    const source = Int16Array.from({ length: 2400 }, (_, i) => Math.round(8000 * Math.sin(i / 7)));
    for (let at = 0; at < source.length; at += 480) core.enqueue(source.subarray(at, at + 480));
    core.end();
    const rendered = render(core, 40);
    const r = new Resampler(24000, 48000);
    const expected = new Int16Array([...r.push(source), ...r.flush()]);
    expect(Int16Array.from(rendered.subarray(0, expected.length), (x) => Math.round(x * 32768))).toEqual(expected);
    expect(rendered.subarray(expected.length).every((x) => x === 0)).toBe(true);
    expect(core.stats).toMatchObject({ underruns: 0, playedMs: 100, state: 'idle' });
  });

  it('waits for the target depth before it plays', () => {
    const core = new PlaybackCore(48000, 48000, 60);
    core.enqueue(new Int16Array(960).fill(1000)); // 20 ms < 60 ms
    expect(render(core, 4).every((x) => x === 0)).toBe(true);
    core.enqueue(new Int16Array(1920).fill(1000));
    expect(render(core, 1)[0]).toBeCloseTo(1000 / 32768, 6);
  });

  it('flush() silences the next quantum and returns the ms of the current item rendered', () => {
    const core = new PlaybackCore(48000, 48000, 20);
    core.enqueue(new Int16Array(4800).fill(500)); // item 1: 100 ms
    core.markItem();
    core.enqueue(new Int16Array(48000).fill(700)); // item 2: 1 s
    render(core, 75); // 9600 frames = 200 ms: item 1 whole, 100 ms of item 2
    expect(core.flush()).toBe(100);
    expect(render(core, 2).every((x) => x === 0)).toBe(true);
    expect(core.stats.bufferedMs).toBe(0);
    // A new item after the flush counts from its own start.
    core.markItem();
    core.enqueue(new Int16Array(4800).fill(900));
    render(core, 15); // 1920 frames = 40 ms
    expect(core.flush()).toBe(40);
  });

  it('answers the page\'s commands through handleCommand()', () => {
    const core = new PlaybackCore(48000, 48000, 20);
    expect(handleCommand(core, { type: 'enqueue', pcm: new Int16Array(1920).fill(1) })).toBeNull();
    render(core, 15); // 1920 frames: all of it
    expect(handleCommand(core, { type: 'stats', id: 3 })).toEqual({ type: 'stats', id: 3, stats: { underruns: 0, bufferedMs: 0, playedMs: 40, state: 'playing' } });
    expect(handleCommand(core, { type: 'flush', id: 4 })).toEqual({ type: 'flushed', id: 4, ms: 40 });
  });
});

import { describe, expect, it } from 'vitest';
import { JitterBuffer } from '../../../../shared/audio/jitter-buffer';

/** Frames numbered 1, 2, 3, ... so order and loss are visible. */
function ramp(from: number, frames: number): Int16Array {
  return Int16Array.from({ length: frames }, (_, i) => from + i);
}

describe('JitterBuffer', () => {
  it('plays silence until the target depth is buffered, then the audio in order', () => {
    const jb = new JitterBuffer(1000, 1, 30); // 30 frames
    jb.push(ramp(1, 20));
    expect(jb.read(10)).toEqual({ pcm: new Int16Array(10), contentFrames: 0 });
    jb.push(ramp(21, 20));
    const first = jb.read(25);
    expect(first.contentFrames).toBe(25);
    expect([...first.pcm]).toEqual([...ramp(1, 25)]);
    expect([...jb.read(15).pcm]).toEqual([...ramp(26, 15)]);
    expect(jb.stats.underruns).toBe(0);
  });

  it('counts an underrun when it runs dry mid-stream, pads with silence and rebuffers to the target', () => {
    const jb = new JitterBuffer(1000, 1, 20);
    jb.push(ramp(1, 30));
    const a = jb.read(40);
    expect(a.contentFrames).toBe(30);
    expect([...a.pcm.subarray(30)]).toEqual(new Array(10).fill(0));
    expect(jb.stats).toMatchObject({ underruns: 1, state: 'buffering' });
    jb.push(ramp(31, 10)); // below the target again: still silent
    expect(jb.read(5).contentFrames).toBe(0);
    jb.push(ramp(41, 10));
    expect([...jb.read(20).pcm]).toEqual([...ramp(31, 20)]);
  });

  it('counts an underrun when a read finds it empty right after a read that emptied it exactly', () => {
    const jb = new JitterBuffer(1000, 1, 10);
    jb.push(ramp(1, 10));
    expect(jb.read(10).contentFrames).toBe(10);
    expect(jb.stats.underruns).toBe(0);
    expect(jb.read(10).contentFrames).toBe(0);
    expect(jb.stats.underruns).toBe(1);
  });

  it('plays a short ending below the target and does not count running out after end() as an underrun', () => {
    const jb = new JitterBuffer(1000, 1, 100);
    jb.push(ramp(1, 30));
    jb.end();
    expect(jb.read(50).contentFrames).toBe(30);
    expect(jb.read(50).contentFrames).toBe(0);
    expect(jb.stats).toMatchObject({ underruns: 0, state: 'idle' });
  });

  it('flush() drops what is buffered at once and reports it; later audio plays after the target again', () => {
    const jb = new JitterBuffer(1000, 2, 10);
    jb.push(ramp(1, 200)); // 100 stereo frames
    jb.read(30);
    expect(jb.flush()).toBe(70);
    expect(jb.read(10).contentFrames).toBe(0);
    expect(jb.stats).toMatchObject({ bufferedFrames: 0, contentFramesRead: 30, framesFlushed: 70, underruns: 0 });
    jb.push(ramp(500, 20));
    expect([...jb.read(10).pcm]).toEqual([...ramp(500, 20)]);
  });

  it('refuses half a frame', () => {
    expect(() => new JitterBuffer(1000, 2).push(new Int16Array(3))).toThrow(/whole/);
  });
});

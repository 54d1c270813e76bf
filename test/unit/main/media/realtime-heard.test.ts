/**
 * The model track as heard (realtime-heard.ts) and the sent audio's capture clock
 * (realtime-input-clock.ts), on a clock the test moves: values only.
 */
import { describe, expect, it } from 'vitest';
import { heardAudio } from '../../../../main/media/realtime-heard';
import { inputClock } from '../../../../main/media/realtime-input-clock';

const RATE = 1000; // one sample a millisecond keeps the sums readable

function setup(live = true, playedMs?: (itemId: string) => number | null) {
  let t = 0;
  const out: Array<{ itemId: string; samples: number[]; at: number }> = [];
  const heard = heardAudio({ rate: RATE, live, now: () => t, emit: (itemId, pcm, at) => out.push({ itemId, samples: [...pcm], at }), ...(playedMs ? { playedMs } : {}) });
  const ramp = (from: number, n: number) => Int16Array.from({ length: n }, (_, i) => from + i);
  return { heard, out, ramp, at: (ms: number) => (t = ms) };
}

describe('heardAudio', () => {
  it('holds audio that arrived early and records it at the time it played, in order and whole', () => {
    const { heard, out, ramp, at } = setup();
    heard.received('a', ramp(0, 300), 0); // 300 ms arrive at once, ahead of playback
    heard.tick();
    expect(out).toEqual([]); // nothing played yet
    heard.firstPlayed('a', 40);
    at(140);
    heard.tick();
    expect(out).toEqual([{ itemId: 'a', samples: [...ramp(0, 100)], at: 40 }]);
    heard.ended('a');
    at(1000);
    heard.tick();
    expect(out[1]).toEqual({ itemId: 'a', samples: [...ramp(100, 200)], at: 140 });
    at(2000);
    heard.tick();
    expect(out).toHaveLength(2); // ended and all released: forgotten
  });

  it('a barge-in keeps exactly the heard milliseconds and drops the rest, even what arrives later', () => {
    const { heard, out, ramp, at } = setup();
    heard.received('a', ramp(0, 500), 0);
    heard.firstPlayed('a', 0);
    at(100);
    heard.tick();
    heard.cut('a', 230);
    heard.received('b', ramp(0, 50), 300);
    at(5000);
    heard.tick();
    const a = out.filter((o) => o.itemId === 'a');
    expect(a.flatMap((o) => o.samples)).toEqual([...ramp(0, 230)]);
    expect(a.map((o) => o.at)).toEqual([0, 100]);
    expect(out.filter((o) => o.itemId === 'b')).toEqual([]); // b never played
    heard.dispose();
    expect(out.filter((o) => o.itemId === 'b')).toEqual([]);
  });

  it('a flush before any played report places the heard part so it ends at the flush', () => {
    const { heard, out, ramp, at } = setup();
    heard.received('a', ramp(0, 500), 0);
    at(400);
    heard.cut('a', 60);
    expect(out).toEqual([{ itemId: 'a', samples: [...ramp(0, 60)], at: 340 }]);
  });

  it("follows the output's own played count when it has one (a device slower than the clock)", () => {
    let played: number | null = 0;
    const { heard, out, ramp, at } = setup(true, () => played);
    heard.received('a', ramp(0, 500), 0);
    heard.firstPlayed('a', 0);
    at(300);
    played = 120;
    heard.tick();
    expect(out.flatMap((o) => o.samples)).toEqual([...ramp(0, 120)]);
    played = null; // the output no longer knows (another item plays): real time
    heard.tick();
    expect(out.flatMap((o) => o.samples)).toEqual([...ramp(0, 300)]);
  });

  it('with no playback, an answer sent ahead is recorded in real time from its arrival, the next after it, and what the line never played is dropped', () => {
    const { heard, out, ramp, at } = setup(false);
    at(7);
    heard.received('a', ramp(0, 300), 7); // 300 ms arrive at once (the service sends ahead)
    heard.ended('a');
    heard.received('b', ramp(1000, 200), 20); // the next answer queues after it on the line
    heard.ended('b');
    at(107);
    heard.tick();
    expect(out).toEqual([{ itemId: 'a', samples: [...ramp(0, 100)], at: 7 }]);
    at(357);
    heard.tick();
    expect(out.slice(1)).toEqual([
      { itemId: 'a', samples: [...ramp(100, 200)], at: 107 },
      { itemId: 'b', samples: [...ramp(1000, 50)], at: 307 },
    ]);
    at(400);
    heard.dispose(); // the call ends (or main is killed) here: b's last 107 ms were never heard
    expect(out.slice(3)).toEqual([{ itemId: 'b', samples: [...ramp(1050, 43)], at: 357 }]);
  });

  it('with no playback, the far side speaking stops the line: what played by then is kept, the rest and what queued behind it dropped', () => {
    const { heard, out, ramp, at } = setup(false);
    heard.received('a', ramp(0, 300), 0);
    heard.received('b', ramp(1000, 100), 10); // queued after a: from 300 ms
    at(100);
    heard.tick();
    heard.interrupted(120); // speech_started arrived at 120 ms
    heard.received('a', ramp(300, 100), 130); // a late delta of the cut answer
    at(1000);
    heard.tick();
    expect(out).toEqual([
      { itemId: 'a', samples: [...ramp(0, 100)], at: 0 },
      { itemId: 'a', samples: [...ramp(100, 20)], at: 100 },
    ]);
    heard.received('c', ramp(2000, 50), 1000); // the next answer plays at once
    at(1050);
    heard.tick();
    expect(out.slice(2)).toEqual([{ itemId: 'c', samples: [...ramp(2000, 50)], at: 1000 }]);
  });

  it('at the end, what has played goes up and what never played is dropped', () => {
    const { heard, out, ramp, at } = setup();
    heard.received('a', ramp(0, 1000), 0);
    heard.firstPlayed('a', 0);
    at(250);
    heard.dispose();
    expect(out.flatMap((o) => o.samples)).toEqual([...ramp(0, 250)]);
  });
});

describe('inputClock', () => {
  it('maps a position in the sent audio to the capture time of that sample', () => {
    const clock = inputClock(RATE);
    clock.captured(20, 1000); // samples 0..19 captured from t=1000
    clock.captured(20, 1025); // a late callback: 20..39 from t=1025
    expect(clock.timeOf(0)).toBe(1000);
    expect(clock.timeOf(10)).toBe(1010);
    expect(clock.timeOf(30)).toBe(1035);
    expect(clock.timeOf(40)).toBe(1045); // the end of what was sent
    expect(clock.timeOf(41)).toBeNull(); // not sent yet
    expect(clock.timeOf(-1)).toBeNull();
  });
  it('forgets anchors older than it keeps', () => {
    const clock = inputClock(RATE, 100);
    for (let i = 0; i < 50; i++) clock.captured(20, i * 20);
    expect(clock.timeOf(0)).toBeNull();
    expect(clock.timeOf(990)).toBe(990);
  });
});

/**
 * The latency panel's turns remembered turn by turn: the same figures as turnTimelines() at every
 * step of a call (barge-ins cutting the turn before included), and a finished turn keeps its objects
 * when later turns come.
 */
import { describe, expect, it } from 'vitest';
import type { RealtimeTurn } from '@shared/realtime-call';
import { memoMarksOfTurns } from '@/families/realtime/lib/call-marks';
import { turnTimelines } from '@/families/realtime/lib/latency-timeline';
import { memoTurnTimelines } from '@/families/realtime/lib/memo-turn-timelines';

type Marks = RealtimeTurn['marks'];
function turn(n: number): RealtimeTurn {
  return {
    turn: n,
    userItemId: null,
    responseId: null,
    assistantItemId: null,
    marks: { speech_started: null, speech_stopped: null, first_audio: null, first_played: null, response_done: null, barge_in: null, truncated: null },
    latency: { firstAudioMs: null, firstPlayedMs: null },
    bargedIn: false,
    truncatedAtMs: null,
  };
}

describe('memoTurnTimelines()', () => {
  it('answers what turnTimelines() does after each mark of a call, keeping the finished turns (same objects)', () => {
    const marksOf = memoMarksOfTurns();
    const timelinesOf = memoTurnTimelines();
    const turns: RealtimeTurn[] = [];
    const steps: Array<[keyof Marks, number]> = [
      ['speech_started', 0],
      ['speech_stopped', 400],
      ['first_audio', 650],
      ['first_played', 700],
    ];
    let previous: ReturnType<typeof timelinesOf> | null = null;
    for (let n = 1; n <= 30; n++) {
      const t0 = (n - 1) * 2000;
      const cur = turn(n);
      turns.push(cur);
      // Every third turn's user barges in on the answer before (which had no end of its own); every fifth's, also after an answer that ended (it cuts nothing).
      const bargeIn = n % 3 === 0 || n % 5 === 0;
      for (const [type, at] of steps) {
        cur.marks[type] = t0 + at + (n % 5) * 10;
        if (type === 'speech_started' && bargeIn) {
          cur.marks.barge_in = t0 + 5;
          cur.marks.truncated = t0 + 8;
          cur.truncatedAtMs = 900;
        }
        const marks = marksOf(turns);
        const got = timelinesOf(marks);
        expect(got).toEqual(turnTimelines({ marks, lanesFor: 0 }));
        if (previous) {
          // The turns two before the open one cannot change any more: their objects are kept.
          for (let i = 0; i < turns.length - 2; i++) expect(got.turns[i]).toBe(previous.turns[i]);
        }
        previous = got;
      }
      // The answer ends, unless the next user cuts it.
      if ((n + 1) % 3 !== 0) cur.marks.response_done = t0 + 1500;
    }
    expect(previous!.turns).toHaveLength(30);
    expect(previous!.metrics.bargeIns).toBe(14);
    expect(previous!.turns[1]!.truncate).toEqual({ t: 2 * 2000 + 8, playedMs: 900 });
  });
});

/**
 * The console's marks of a call's turns, remembered between frames: the same list while no turn's
 * marks changed (so the latency panel does not recompute), a new one as soon as one did.
 */
import { describe, expect, it } from 'vitest';
import type { RealtimeTurn } from '@shared/realtime-call';
import { marksOfTurns, memoMarksOfTurns } from '@/families/realtime/lib/call-marks';

function turn(n: number, marks: Partial<RealtimeTurn['marks']>): RealtimeTurn {
  return {
    turn: n,
    userItemId: null,
    responseId: null,
    assistantItemId: null,
    marks: { speech_started: null, speech_stopped: null, first_audio: null, first_played: null, response_done: null, barge_in: null, truncated: null, ...marks },
    latency: { firstAudioMs: null, firstPlayedMs: null },
    bargedIn: false,
    truncatedAtMs: null,
  };
}

describe('memoMarksOfTurns()', () => {
  it('answers the same list while the turns are unchanged, and the new marks when any turn changed in place or one was added', () => {
    const marksOf = memoMarksOfTurns();
    const turns = [turn(1, { speech_started: 100, speech_stopped: 900, first_audio: 1200 }), turn(2, { speech_started: 3000 })];
    const first = marksOf(turns);
    expect(first).toEqual(marksOfTurns(turns));
    expect(marksOf(turns)).toBe(first);

    // An earlier turn changed in place (a barge-in cuts the answer before it).
    turns[0]!.marks.truncated = 3050;
    turns[0]!.truncatedAtMs = 1500;
    const second = marksOf(turns);
    expect(second).not.toBe(first);
    expect(second).toEqual(marksOfTurns(turns));
    expect(second.find((m) => m.type === 'truncated')).toMatchObject({ t: 3050, turn: 1, data: { playedMs: 1500 } });
    expect(marksOf(turns)).toBe(second);

    turns.push(turn(3, { speech_started: 5000 }));
    const third = marksOf(turns);
    expect(third.map((m) => m.turn)).toEqual(marksOfTurns(turns).map((m) => m.turn));
    expect(third.filter((m) => m.turn === 3)).toHaveLength(1);

    // The oldest turn let go (the snapshot's cap): fewer turns is a change too.
    turns.shift();
    expect(marksOf(turns)).toEqual(marksOfTurns(turns));
    expect(marksOf(turns).some((m) => m.turn === 1)).toBe(false);
  });

  it("keeps a finished turn's marks (the same objects) when a new turn comes, and makes only the new turn's", () => {
    const marksOf = memoMarksOfTurns();
    const turns = Array.from({ length: 200 }, (_, i) => turn(i + 1, { speech_started: i * 1000, speech_stopped: i * 1000 + 400, first_audio: i * 1000 + 700, response_done: i * 1000 + 900 }));
    const first = marksOf(turns);
    expect(first).toHaveLength(800);
    turns.push(turn(201, { speech_started: 200_000 }));
    const second = marksOf(turns);
    expect(second).toEqual(marksOfTurns(turns));
    expect(second).toHaveLength(801);
    for (let i = 0; i < 800; i++) expect(second[i]).toBe(first[i]);
    // The open turn's new mark: a new mark for it, the finished turns' kept.
    turns[200]!.marks.speech_stopped = 200_500;
    const third = marksOf(turns);
    expect(third).toEqual(marksOfTurns(turns));
    expect(third[799]).toBe(first[799]);
    expect(third.slice(800).map((m) => m.type)).toEqual(['speech_started', 'speech_stopped']);
    // A mark of the turn before (its barge-in) remakes that turn's marks and moves the later ones along; the earlier turns keep theirs.
    turns[199]!.marks.barge_in = 199_950;
    const fourth = marksOf(turns);
    expect(fourth).toEqual(marksOfTurns(turns));
    expect(fourth[795]).toBe(first[795]);
    expect(fourth.slice(800).map((m) => [m.turn, m.type])).toEqual([[200, 'barge_in'], [201, 'speech_started'], [201, 'speech_stopped']]);
  });
});

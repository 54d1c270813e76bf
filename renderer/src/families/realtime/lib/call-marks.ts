/**
 * A live call's turns (shared/realtime-call: each turn's marks by name) as the typed session marks
 * the latency maths reads (shared/session-metrics), each with its own turn number, in time order,
 * so the console and History compute the same figures (pure).
 */
import type { SessionMark, SessionMarkType } from '@shared/session-metrics';
import type { RealtimeTurn } from '@shared/realtime-call';

export function marksOfTurns(turns: readonly RealtimeTurn[]): SessionMark[] {
  const out: Omit<SessionMark, 'eventIndex'>[] = [];
  for (const turn of turns) {
    for (const [type, t] of Object.entries(turn.marks) as Array<[SessionMarkType & keyof RealtimeTurn['marks'], number | null]>) {
      if (t === null) continue;
      out.push({ type, t, turn: turn.turn, ...(type === 'truncated' && turn.truncatedAtMs !== null ? { data: { playedMs: turn.truncatedAtMs } } : {}) });
    }
  }
  out.sort((a, b) => a.t - b.t);
  return out.map((m, eventIndex) => ({ ...m, eventIndex }));
}

/**
 * marksOfTurns() that answers its previous list (the same array) while no turn's marks changed.
 * The console reads the marks every frame the call's state changes (each transcript delta); a long
 * call has up to 1,000 turns, and rebuilding their marks each frame made the latency panel recompute
 * and the page collect the garbage in long pauses.
 */
export function memoMarksOfTurns(): (turns: readonly RealtimeTurn[]) => SessionMark[] {
  const seen: Array<number | string | null> = [];
  let last: SessionMark[] = [];
  return (turns) => {
    let i = 0;
    let same = true;
    const note = (v: number | string | null) => {
      if (same && seen[i] !== v) same = false;
      if (!same) seen[i] = v;
      i++;
    };
    for (const turn of turns) {
      note(turn.turn);
      note(turn.truncatedAtMs);
      for (const type in turn.marks) {
        note(type);
        note(turn.marks[type as keyof RealtimeTurn['marks']]);
      }
    }
    if (same && i === seen.length) return last;
    seen.length = i;
    last = marksOfTurns(turns);
    return last;
  };
}

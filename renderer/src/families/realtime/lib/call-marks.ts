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

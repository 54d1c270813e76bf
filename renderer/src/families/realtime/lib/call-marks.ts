/**
 * A live call's turns (shared/realtime-call: each turn's marks by name) as the typed session marks
 * the latency maths reads (shared/session-metrics), each with its own turn number, in time order,
 * so the console and History compute the same figures (pure).
 */
import type { SessionMark, SessionMarkType } from '@shared/session-metrics';
import type { RealtimeTurn } from '@shared/realtime-call';

type TurnMark = Omit<SessionMark, 'eventIndex'>;


/** One turn's marks (unsorted), as marksOfTurns() makes them. */
function marksOfTurn(turn: RealtimeTurn): TurnMark[] {
  const out: TurnMark[] = [];
  for (const [type, t] of Object.entries(turn.marks) as Array<[SessionMarkType & keyof RealtimeTurn['marks'], number | null]>) {
    if (t === null) continue;
    out.push({ type, t, turn: turn.turn, ...(type === 'truncated' && turn.truncatedAtMs !== null ? { data: { playedMs: turn.truncatedAtMs } } : {}) });
  }
  return out;
}

export function marksOfTurns(turns: readonly RealtimeTurn[]): SessionMark[] {
  const out = turns.flatMap(marksOfTurn);
  out.sort((a, b) => a.t - b.t);
  return out.map((m, eventIndex) => ({ ...m, eventIndex }));
}

/** What a turn's marks are made of, to tell whether it changed since it was last seen. */
function signatureOf(turn: RealtimeTurn): Array<number | string | null> {
  const sig: Array<number | string | null> = [turn.truncatedAtMs];
  for (const type in turn.marks) sig.push(type, turn.marks[type as keyof RealtimeTurn['marks']]);
  return sig;
}

function sameSignature(a: ReadonlyArray<number | string | null>, turn: RealtimeTurn): boolean {
  let i = 0;
  if (a[i++] !== turn.truncatedAtMs) return false;
  for (const type in turn.marks) if (a[i++] !== type || a[i++] !== turn.marks[type as keyof RealtimeTurn['marks']]) return false;
  return i === a.length;
}

/**
 * marksOfTurns() that answers its previous list (the same array) while no turn's marks changed, and
 * otherwise rebuilds only what changed: each turn's marks are remembered (a finished turn does not
 * change), and a mark keeps its object while its place in the call does. The console reads the marks
 * every frame the call's state changes; a long call has up to 1,000 turns, and rebuilding every
 * turn's marks on each new mark was ~340 ms of script over test/bench/realtime-event-log-chromium.ts's
 * arrive phase (and garbage the page collected in long pauses).
 */
export function memoMarksOfTurns(): (turns: readonly RealtimeTurn[]) => SessionMark[] {
  let perTurn = new Map<number, { sig: Array<number | string | null>; marks: TurnMark[] }>();
  let seenTurns: number[] = [];
  let last: SessionMark[] = [];
  /** Each mark of `last` by the turn mark it was made from. */
  let madeFrom = new Map<TurnMark, SessionMark>();
  return (turns) => {
    let same = turns.length === seenTurns.length;
    const next = new Map<number, { sig: Array<number | string | null>; marks: TurnMark[] }>();
    for (let i = 0; i < turns.length; i++) {
      const turn = turns[i]!;
      if (same && seenTurns[i] !== turn.turn) same = false;
      const held = perTurn.get(turn.turn);
      if (held && sameSignature(held.sig, turn)) next.set(turn.turn, held);
      else {
        same = false;
        next.set(turn.turn, { sig: signatureOf(turn), marks: marksOfTurn(turn) });
      }
    }
    perTurn = next;
    if (same) return last;
    seenTurns = turns.map((t) => t.turn);
    const all: TurnMark[] = [];
    for (const held of next.values()) for (const m of held.marks) all.push(m);
    // Turns come in time order, so this is nearly sorted already (cheap for the engine's sort).
    all.sort((a, b) => a.t - b.t);
    const made = new Map<TurnMark, SessionMark>();
    last = all.map((m, eventIndex) => {
      const before = madeFrom.get(m);
      const mark = before && before.eventIndex === eventIndex ? before : { ...m, eventIndex };
      made.set(m, mark);
      return mark;
    });
    madeFrom = made;
    return last;
  };
}

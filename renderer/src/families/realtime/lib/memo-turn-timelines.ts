/**
 * turnTimelines() for a live call, remembered turn by turn (pure). A call's marks change at its
 * open turn; a finished turn's marks, figures and timeline do not. Rebuilding every turn (and the
 * metrics over all their marks) on each new mark was script in the long tasks of a long call in
 * test/bench/realtime-event-log-chromium.ts: this rebuilds the turns whose marks changed, and the
 * summary figures (p50/p95 over the turns' numbers).
 */
import { summariseTurns, type SessionMark, type SessionMetrics, type TurnMetrics } from '@shared/session-metrics';
import { TIMELINE_MARGIN_MS, turnTimelines, type TurnTimeline } from './latency-timeline';

interface HeldTurn {
  marks: SessionMark[];
  /** The turn as its own marks make it (before a later turn's barge-in cuts its playback). */
  base: TurnTimeline;
  /** Its playback ended by a mark of its own (cut, barge-in, done). */
  ownStop: boolean;
  /** Its first answer audio received, if any. */
  firstAudioAt: number | null;
  /** The turn as cut by the next turn's barge-in, and where (kept while the cut is the same). */
  cut: { key: string; turn: TurnTimeline } | null;
}

export interface TurnTimelinesResult {
  turns: TurnTimeline[];
  metrics: SessionMetrics;
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function heldTurn(marks: SessionMark[]): HeldTurn | null {
  const base = turnTimelines({ marks, lanesFor: 0 }).turns[0];
  if (!base) return null;
  const has = (type: SessionMark['type']) => marks.some((m) => m.type === type);
  const firstAudio = marks.find((m) => m.type === 'first_audio');
  return { marks, base, ownStop: has('truncated') || has('barge_in') || has('response_done'), firstAudioAt: firstAudio ? firstAudio.t : null, cut: null };
}

/**
 * A function equal to `turnTimelines({ marks, lanesFor: 0 })` that keeps each unchanged turn's
 * objects. Marks without a turn number (turns counted from the marks, as in an old recording) go
 * through the whole computation.
 */
export function memoTurnTimelines(): (marks: readonly SessionMark[]) => TurnTimelinesResult {
  let held = new Map<number, HeldTurn>();
  let lastMarks: readonly SessionMark[] | null = null;
  let last: TurnTimelinesResult | null = null;
  return (marks) => {
    if (marks === lastMarks && last) return last;
    lastMarks = marks;
    if (marks.some((m) => typeof m.turn !== 'number')) return (last = turnTimelines({ marks, lanesFor: 0 }));
    const grouped = new Map<number, SessionMark[]>();
    for (const m of [...marks].sort((a, b) => a.eventIndex - b.eventIndex || a.t - b.t)) {
      const list = grouped.get(m.turn!);
      if (list) list.push(m);
      else grouped.set(m.turn!, [m]);
    }
    const next = new Map<number, HeldTurn>();
    const kept: HeldTurn[] = [];
    for (const n of [...grouped.keys()].sort((a, b) => a - b)) {
      const list = grouped.get(n)!;
      const before = held.get(n);
      const turn = before && sameList(before.marks, list) ? before : heldTurn(list);
      if (!turn) continue;
      next.set(n, turn);
      kept.push(turn);
    }
    held = next;
    // A barge-in is marked in the turn the user's new speech starts, but it cuts the answer still
    // playing from the turn before (as turnTimelines() does, on a copy: the base stays as made).
    const turns = kept.map((t) => t.base);
    for (let i = 1; i < kept.length; i++) {
      const prev = kept[i - 1]!;
      const cur = kept[i]!.base;
      const at = cur.truncate?.t ?? cur.bargeIn;
      if (at === null || !prev.base.playback || prev.ownStop) continue;
      const key = `${at}|${cur.bargeIn}|${cur.truncate?.t}|${cur.truncate?.playedMs}`;
      if (prev.cut?.key !== key) {
        const p = prev.base;
        prev.cut = {
          key,
          turn: { ...p, playback: { start: p.playback!.start, end: Math.max(p.playback!.start, at) }, bargeIn: cur.bargeIn, truncate: cur.truncate, to: Math.max(p.to, at + TIMELINE_MARGIN_MS) },
        };
      }
      turns[i - 1] = prev.cut.turn;
    }
    const list: TurnMetrics[] = turns.map((t) => t.metrics);
    let firstAudioAt: number | null = null;
    for (const t of kept) if (t.firstAudioAt !== null && (firstAudioAt === null || t.firstAudioAt < firstAudioAt)) firstAudioAt = t.firstAudioAt;
    const metrics: SessionMetrics = summariseTurns(list, firstAudioAt);
    return (last = { turns, metrics });
  };
}

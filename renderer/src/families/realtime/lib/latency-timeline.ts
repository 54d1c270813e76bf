/**
 * Latency per turn of a call (pure): each turn's figures (end of user speech → first model audio
 * byte → first sample played, from shared/session-metrics.ts, the same maths History uses) and
 * the lanes its timeline draws on one clock: the microphone level, the VAD's speech span, the
 * server's events, playback, and the barge-in / truncate point. Times are milliseconds on the
 * call's clock (the marks' clock).
 */
import { sessionMetrics, type SessionMark, type SessionMetrics, type TurnMetrics } from '@shared/session-metrics';
import { isFoldable } from './event-log';

/** A microphone level sample (rms, dBFS) at `t`. */
export interface LevelSample {
  t: number;
  dbfs: number;
}

/** An event (or a fold of them) of the log: what the server lane draws. */
export interface TimelineEvent {
  t: number;
  /** The last message of a fold (equal to `t` for one message). */
  tLast: number;
  type: string;
  direction: 'in' | 'out';
  count: number;
}

export interface TurnTimeline {
  turn: number;
  metrics: TurnMetrics;
  /** The window drawn, ms on the call clock. */
  from: number;
  to: number;
  /** The VAD's speech span (either end may be unknown). */
  speech: { start: number | null; end: number | null };
  firstAudio: number | null;
  firstPlayed: number | null;
  /** From the first sample played to where it stopped (cut, or the answer done); null when nothing played. */
  playback: { start: number; end: number } | null;
  bargeIn: number | null;
  /** Where the answer was cut, and how much of it had played. */
  truncate: { t: number; playedMs: number | null } | null;
  events: TimelineEvent[];
  levels: LevelSample[];
}

/** Room either side of a turn's marks, so the first and last do not sit on the edges. */
export const TIMELINE_MARGIN_MS = 250;
/** Level samples drawn per turn at most (a long turn is decimated, keeping each bucket's loudest). */
export const MAX_LEVEL_POINTS = 200;

const INPUT_END = new Set(['speech_stopped', 'text_done']);

/**
 * Marks grouped by turn with the same rule as sessionMetrics(): a turn starts with the user's
 * speech, or with an end of input the current turn already has; a mark with its own `turn` says so.
 */
export function marksByTurn(marks: readonly SessionMark[]): Map<number, SessionMark[]> {
  const ordered = [...marks].sort((a, b) => a.eventIndex - b.eventIndex || a.t - b.t);
  const out = new Map<number, SessionMark[]>();
  const inputEnded = new Set<number>();
  let counted = 0;
  let current: number | null = null;
  for (const mark of ordered) {
    let n: number | null;
    if (typeof mark.turn === 'number') n = mark.turn;
    else {
      if (mark.type === 'speech_started' || (INPUT_END.has(mark.type) && (current === null || inputEnded.has(current)))) current = ++counted;
      n = current;
    }
    if (n === null) continue;
    if (INPUT_END.has(mark.type)) inputEnded.add(n);
    let list = out.get(n);
    if (!list) out.set(n, (list = []));
    list.push(mark);
  }
  return out;
}

function firstOf(marks: readonly SessionMark[], type: SessionMark['type']): SessionMark | undefined {
  return marks.find((m) => m.type === type);
}

/** The loudest sample of each of at most `max` equal buckets (a peak never vanishes by decimation). */
export function decimateLevels(levels: readonly LevelSample[], max: number = MAX_LEVEL_POINTS): LevelSample[] {
  if (levels.length <= max) return levels.slice();
  const out: LevelSample[] = [];
  const size = levels.length / max;
  for (let b = 0; b < max; b++) {
    let best: LevelSample | undefined;
    for (let i = Math.floor(b * size); i < Math.floor((b + 1) * size); i++) if (!best || levels[i]!.dbfs > best.dbfs) best = levels[i];
    if (best) out.push(best);
  }
  return out;
}

/** Each turn's figures and lanes, in turn order, with the call's summary (p50/p95 over turns). */
export function turnTimelines(input: {
  marks: readonly SessionMark[];
  events?: readonly TimelineEvent[];
  levels?: readonly LevelSample[];
  /** Fill the event and level lanes of only the newest this many turns (the ones drawn; a long call's log is large). */
  lanesFor?: number;
}): { turns: TurnTimeline[]; metrics: SessionMetrics } {
  const metrics = sessionMetrics(input.marks);
  const grouped = marksByTurn(input.marks);
  const turns: TurnTimeline[] = [];
  /** Whether each turn's playback ended by a mark of its own (cut, barge-in, done). */
  const ownStop: boolean[] = [];
  for (const m of metrics.turns) {
    const marks = grouped.get(m.turn) ?? [];
    if (marks.length === 0) continue;
    const started = firstOf(marks, 'speech_started')?.t ?? null;
    const stopped = m.inputEndMs;
    const firstAudio = firstOf(marks, 'first_audio')?.t ?? null;
    const firstPlayed = firstOf(marks, 'first_played')?.t ?? null;
    const barge = firstOf(marks, 'barge_in')?.t ?? null;
    const cut = firstOf(marks, 'truncated');
    const done = firstOf(marks, 'response_done')?.t ?? null;
    const playedMs = cut && typeof cut.data?.playedMs === 'number' ? cut.data.playedMs : null;
    const times = marks.map((x) => x.t);
    const from = Math.min(...times) - TIMELINE_MARGIN_MS;
    const to = Math.max(...times) + TIMELINE_MARGIN_MS;
    const stop = cut?.t ?? barge ?? done;
    turns.push({
      turn: m.turn,
      metrics: m,
      from,
      to,
      speech: { start: started, end: stopped },
      firstAudio,
      firstPlayed,
      playback: firstPlayed === null ? null : { start: firstPlayed, end: Math.max(firstPlayed, stop ?? to) },
      bargeIn: barge,
      truncate: cut ? { t: cut.t, playedMs } : null,
      events: [],
      levels: [],
    });
    ownStop.push(stop !== null);
  }
  // A barge-in is marked in the turn the user's new speech starts, but it cuts the answer still
  // playing from the turn before: that turn's playback ends there, and shows the truncate point.
  for (let i = 1; i < turns.length; i++) {
    const prev = turns[i - 1]!;
    const cur = turns[i]!;
    const at = cur.truncate?.t ?? cur.bargeIn;
    if (at === null || !prev.playback || ownStop[i - 1]) continue;
    prev.playback.end = Math.max(prev.playback.start, at);
    prev.bargeIn = cur.bargeIn;
    prev.truncate = cur.truncate;
    prev.to = Math.max(prev.to, at + TIMELINE_MARGIN_MS);
  }
  const lanesFor = input.lanesFor ?? turns.length;
  for (let i = Math.max(0, turns.length - lanesFor); i < turns.length; i++) turns[i] = withLanes(turns[i]!, input.events ?? [], input.levels ?? []);
  return { turns, metrics };
}

/** A turn with its event and level lanes filled from the call's events and levels (a new object). */
export function withLanes(turn: TurnTimeline, events: readonly TimelineEvent[], levels: readonly LevelSample[]): TurnTimeline {
  return {
    ...turn,
    events: events.filter((e) => e.direction === 'in' && e.tLast >= turn.from && e.t <= turn.to),
    levels: decimateLevels(levels.filter((l) => l.t >= turn.from && l.t <= turn.to)),
  };
}

/** Where `t` sits in a turn's window, 0-100 (clamped). */
export function percentAt(timeline: Pick<TurnTimeline, 'from' | 'to'>, t: number): number {
  const span = timeline.to - timeline.from;
  if (span <= 0) return 0;
  return Math.min(100, Math.max(0, ((t - timeline.from) / span) * 100));
}

/** A level as a height 0-1 (-60 dBFS and below is 0). */
export function levelHeight(dbfs: number): number {
  return Math.min(1, Math.max(0, (dbfs + 60) / 60));
}

/**
 * withLanes() for the few turns drawn, remembered per turn: a turn's lanes are worked out again
 * only when its window (its marks) or what falls in it (a row added, a fold grown, a level sample)
 * changed. The panel asks every frame of a busy call; filtering the whole log (5,000 rows) and the
 * levels for each drawn turn, and handing the timelines new objects to patch, was per-frame work
 * proportional to what exists, not to what arrived. `events` must be in time order (the log is).
 */
export function memoLanes(): (turns: readonly TurnTimeline[], events: readonly TimelineEvent[], levels: readonly LevelSample[]) => TurnTimeline[] {
  interface Seen {
    turn: TurnTimeline;
    events: TimelineEvent[];
    /** Each event's count and tLast as they were (a fold grows in place). */
    folds: number[];
    levelsFrom: LevelSample | undefined;
    levelsTo: LevelSample | undefined;
    levelsCount: number;
    out: TurnTimeline;
  }
  let seen = new Map<number, Seen>();
  return (turns, events, levels) => {
    const next = new Map<number, Seen>();
    const out = turns.map((turn) => {
      const inWindow = eventsInWindow(events, turn.from, turn.to);
      const lo = firstAtOrAfter(levels, turn.from);
      const hi = firstAfter(levels, turn.to);
      const before = seen.get(turn.turn);
      let entry: Seen;
      if (before && before.turn === turn && sameEvents(before, inWindow) && before.levelsCount === hi - lo && before.levelsFrom === levels[lo] && before.levelsTo === levels[hi - 1]) entry = before;
      else {
        // The same levels array when no sample came (a fold grew): the level trace is not drawn again.
        const sameLevels = before && before.turn.from === turn.from && before.turn.to === turn.to && before.levelsCount === hi - lo && before.levelsFrom === levels[lo] && before.levelsTo === levels[hi - 1];
        const built: TurnTimeline = { ...turn, events: inWindow, levels: sameLevels ? before.out.levels : decimateLevels(levels.slice(lo, hi)) };
        entry = { turn, events: inWindow, folds: inWindow.flatMap((e) => [e.count, e.tLast]), levelsFrom: levels[lo], levelsTo: levels[hi - 1], levelsCount: hi - lo, out: built };
      }
      next.set(turn.turn, entry);
      return entry.out;
    });
    seen = next;
    return out;
  };
}

function sameEvents(seen: { events: TimelineEvent[]; folds: number[] }, now: TimelineEvent[]): boolean {
  if (seen.events.length !== now.length) return false;
  for (let i = 0; i < now.length; i++) {
    const e = now[i]!;
    if (seen.events[i] !== e || seen.folds[2 * i] !== e.count || seen.folds[2 * i + 1] !== e.tLast) return false;
  }
  return true;
}

/** Index of the first sample at or after `t` (samples in time order). */
function firstAtOrAfter(list: readonly { t: number }[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first sample after `t`. */
function firstAfter(list: readonly { t: number }[], t: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The received events a turn's window [from, to] shows, as withLanes() filters them, found from the
 * window's end backwards: a fold that began before the window may reach into it, but one that does
 * not fold closes every fold before it, so the search stops at the first such event before the window.
 */
export function eventsInWindow(events: readonly TimelineEvent[], from: number, to: number): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  for (let i = firstAfter(events, to) - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.direction === 'in' && e.tLast >= from && e.t <= to) out.push(e);
    if (e.t < from && !isFoldable(e.type)) break;
  }
  return out.reverse();
}

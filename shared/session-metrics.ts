/**
 * The figures of a live session (a live transcription, a streamed speech, a realtime or SIP call),
 * derived from its typed marks alone, so History computes them the same way for a session that
 * ended cleanly and for one a crash cut short. Times are milliseconds on the session clock (0 =
 * the session started). A turn runs from the end of the user's input (speech stopped, or the text
 * sent for speech) to the answer: time to first audio received, to the first sample played, to
 * the final transcript. A figure with no mark to come from is null, never 0.
 */

export const SESSION_MARK_TYPES = [
  'speech_started', // the user began speaking (VAD, local or the service's)
  'speech_stopped', // ... and stopped: the end of a turn's input
  'text_done', // speech synthesis: the text was all sent (the end of a turn's input)
  'first_audio', // the first byte of answer audio arrived from the service
  'first_played', // ... and its first sample reached the output device
  'interim_transcript',
  'final_transcript',
  'response_done',
  'barge_in', // the user spoke over the answer and playback was flushed
  'truncated', // the answer was cut to what was heard (data: { playedMs })
  'reconnected',
  'error',
] as const;
export type SessionMarkType = (typeof SESSION_MARK_TYPES)[number];

export interface SessionMark {
  type: SessionMarkType;
  /** Milliseconds on the session clock. */
  t: number;
  /** The turn it belongs to when the caller knows it; otherwise turns are counted from the marks. */
  turn?: number | null;
  /** How many events had been captured before it (where it sits in the timeline). */
  eventIndex: number;
  data?: Record<string, unknown> | null;
}

export interface TurnMetrics {
  turn: number;
  /** When the user's input ended (speech stopped or text sent). */
  inputEndMs: number | null;
  /** End of input → first answer audio received. */
  firstAudioMs: number | null;
  /** End of input → first answer sample played. */
  firstPlayedMs: number | null;
  /** End of input → final transcript. */
  finalTranscriptMs: number | null;
  bargedIn: boolean;
}

export interface Spread {
  count: number;
  p50: number | null;
  p95: number | null;
}

export interface SessionMetrics {
  /** Session start → first answer audio received (streamed speech's "time to first audio"). */
  timeToFirstAudioMs: number | null;
  turns: TurnMetrics[];
  firstAudio: Spread;
  firstPlayed: Spread;
  finalTranscript: Spread;
  bargeIns: number;
}

const INPUT_END: ReadonlySet<SessionMarkType> = new Set(['speech_stopped', 'text_done']);

/** Per-turn latencies and their spread over the session. */
export function sessionMetrics(marks: readonly SessionMark[]): SessionMetrics {
  const ordered = [...marks].sort((a, b) => a.eventIndex - b.eventIndex || a.t - b.t);
  const turns = new Map<number, TurnMetrics>();
  let counted = 0;
  let current: number | null = null;
  let firstAudioAt: number | null = null;
  const turnOf = (mark: SessionMark): number | null => {
    if (typeof mark.turn === 'number') return mark.turn;
    // A new turn starts with the user's speech, or with an end of input the current turn already
    // has (speech synthesis sends text after text; a VAD may report only the ends).
    if (mark.type === 'speech_started' || (INPUT_END.has(mark.type) && (current === null || turns.get(current)?.inputEndMs != null))) current = ++counted;
    return current;
  };
  for (const mark of ordered) {
    if (mark.type === 'first_audio' && firstAudioAt === null) firstAudioAt = mark.t;
    const n = turnOf(mark);
    if (n === null) continue;
    let turn = turns.get(n);
    if (!turn) turns.set(n, (turn = { turn: n, inputEndMs: null, firstAudioMs: null, firstPlayedMs: null, finalTranscriptMs: null, bargedIn: false }));
    const since = (t: number): number | null => (turn.inputEndMs === null ? null : Math.max(0, t - turn.inputEndMs));
    if (INPUT_END.has(mark.type)) turn.inputEndMs ??= mark.t;
    else if (mark.type === 'first_audio') turn.firstAudioMs ??= since(mark.t);
    else if (mark.type === 'first_played') turn.firstPlayedMs ??= since(mark.t);
    else if (mark.type === 'final_transcript') turn.finalTranscriptMs ??= since(mark.t);
    else if (mark.type === 'barge_in') turn.bargedIn = true;
  }
  return summariseTurns([...turns.values()].sort((a, b) => a.turn - b.turn), firstAudioAt);
}

/** A session's figures from its turns (in order) and when its first audio came. */
export function summariseTurns(list: TurnMetrics[], firstAudioAt: number | null): SessionMetrics {
  return {
    timeToFirstAudioMs: firstAudioAt,
    turns: list,
    firstAudio: spread(list.map((t) => t.firstAudioMs)),
    firstPlayed: spread(list.map((t) => t.firstPlayedMs)),
    finalTranscript: spread(list.map((t) => t.finalTranscriptMs)),
    bargeIns: list.filter((t) => t.bargedIn).length,
  };
}

/** Nearest-rank percentiles of the known values. */
export function spread(values: ReadonlyArray<number | null>): Spread {
  const known = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  const rank = (p: number): number | null => (known.length === 0 ? null : known[Math.min(known.length - 1, Math.ceil((p / 100) * known.length) - 1)]);
  return { count: known.length, p50: rank(50), p95: rank(95) };
}

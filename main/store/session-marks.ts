/**
 * The `session_marks` table (migration 0013): a live session's typed marks, each with its time on
 * the session clock and how many events had been captured before it, so a timeline page can
 * interleave marks and events without reading the whole log.
 */
import type { SessionMark, SessionMarkType } from '../../shared/session-metrics';
import type { Db } from './db';
import { prepare, timed } from './query';

interface Row {
  type: string;
  t_ms: number;
  event_index: number;
  turn: number | null;
  data_json: string | null;
}

function toMark(r: Row): SessionMark {
  let data: Record<string, unknown> | null = null;
  try {
    data = r.data_json ? (JSON.parse(r.data_json) as Record<string, unknown>) : null;
  } catch {
    // A damaged row keeps its type and time.
  }
  return { type: r.type as SessionMarkType, t: r.t_ms, turn: r.turn, eventIndex: r.event_index, data };
}

export function insertMark(db: Db, runId: string, mark: SessionMark): void {
  timed(db, 'insertMark', () =>
    prepare(db, 'INSERT INTO session_marks (run_id, type, t_ms, event_index, turn, data_json) VALUES (?, ?, ?, ?, ?, ?)').run(
      runId,
      mark.type,
      mark.t,
      mark.eventIndex,
      mark.turn ?? null,
      mark.data ? JSON.stringify(mark.data) : null,
    ),
  );
}

/** Every mark of run `runId`, in timeline order. */
export function marksOfRun(db: Db, runId: string): SessionMark[] {
  return timed(db, 'marksOfRun', () =>
    prepare<[string], Row>(db, 'SELECT type, t_ms, event_index, turn, data_json FROM session_marks WHERE run_id = ? ORDER BY event_index, seq').all(runId),
  ).map(toMark);
}

/** The last mark's time, or null (a crashed session's length when it had no audio). */
export function lastMarkMs(db: Db, runId: string): number | null {
  return timed(db, 'lastMarkMs', () => prepare<[string], number | null>(db, 'SELECT MAX(t_ms) FROM session_marks WHERE run_id = ?').pluck().get(runId) ?? null);
}

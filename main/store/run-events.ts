/**
 * A run's raw SSE event log (migration 0008): appended chunk by chunk while the run streams and
 * read back a page at a time when the inspector asks. The run's `event_count` moves with every
 * chunk in the same transaction, so the count and the chunks never disagree.
 */
import type { RunEventsPage } from '../../shared/contract/history';
import type { CapturedEvent } from '../../shared/contract/runs';
import type { Db } from './db';
import { prepare, timed } from './query';
import { decodeEventChunk, encodeEventChunk } from './run-event-codec';

export type { RunEventsPage };

/**
 * Appends `events` to run `id`'s log as one compressed chunk (one transaction with the run's
 * count). Returns false when the run is gone (deleted while it streamed).
 */
export function appendRunEvents(db: Db, id: string, events: readonly CapturedEvent[]): boolean {
  if (events.length === 0) return true;
  const data = encodeEventChunk(events);
  return timed(db, 'appendRunEvents', () =>
    db.transaction(() => {
      const run = prepare<[string], { seq: number; event_count: number }>(db, 'SELECT seq, event_count FROM runs WHERE id = ?').get(id);
      if (!run) return false;
      const next = prepare<[number], number>(db, 'SELECT COALESCE(MAX(chunk) + 1, 0) FROM run_event_chunks WHERE run_seq = ?').pluck().get(run.seq) ?? 0;
      prepare(db, 'INSERT INTO run_event_chunks (run_seq, chunk, first_event, count, data) VALUES (?, ?, ?, ?, ?)').run(
        run.seq,
        next,
        run.event_count,
        events.length,
        data,
      );
      prepare(db, 'UPDATE runs SET event_count = event_count + ? WHERE seq = ?').run(events.length, run.seq);
      return true;
    }).immediate(),
  );
}

/**
 * Events `offset .. offset+limit` of run `id` (decompressing only the chunks that hold them), or
 * null when there is no such run.
 */
export function readRunEvents(db: Db, id: string, offset = 0, limit = Number.MAX_SAFE_INTEGER): RunEventsPage | null {
  return timed(db, 'readRunEvents', () => {
    const run = prepare<[string], { seq: number; event_count: number }>(db, 'SELECT seq, event_count FROM runs WHERE id = ?').get(id);
    if (!run) return null;
    const end = Math.min(run.event_count, offset + limit);
    const chunks = prepare<[number, number, number], { first_event: number; data: Buffer }>(
      db,
      `SELECT first_event, data FROM run_event_chunks
       WHERE run_seq = ? AND first_event < ? AND first_event + count > ? ORDER BY chunk`,
    ).all(run.seq, end, offset);
    const events: CapturedEvent[] = [];
    for (const chunk of chunks) {
      const decoded = decodeEventChunk(chunk.data);
      const from = Math.max(0, offset - chunk.first_event);
      const to = Math.min(decoded.length, end - chunk.first_event);
      for (let i = from; i < to; i++) events.push(decoded[i]);
    }
    return { events, offset, total: run.event_count };
  });
}

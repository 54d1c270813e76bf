/**
 * The `audio_tracks` and `recording_sessions` tables (migration 0013): which tracks a recorded
 * live session has, which are still being written (`recording`), and what each became (a WAV
 * blob the row holds one reference on, taken in the transaction that records it; a trigger
 * releases it when the row goes, with its run or alone).
 */
import type { BlobInfo } from './blobs';
import type { Db } from './db';
import { addBlobRef } from './blob-rows';
import { prepare, timed } from './query';

export type TrackState = 'recording' | 'closed' | 'crashed' | 'lost';
export type SessionState = 'recording' | 'ended' | 'aborted' | 'crashed';

export interface TrackRow {
  id: string;
  runId: string;
  direction: 'in' | 'out';
  name: string;
  format: 'pcm_s16le';
  sampleRate: number;
  channels: number;
  startMs: number;
  state: TrackState;
  frames: number | null;
  hash: string | null;
  bytes: number | null;
  createdAt: number;
  endedAt: number | null;
}

export interface SessionRow {
  runId: string;
  kind: string;
  state: SessionState;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
}

interface RawTrack {
  id: string;
  run_id: string;
  direction: 'in' | 'out';
  name: string;
  format: 'pcm_s16le';
  sample_rate: number;
  channels: number;
  start_ms: number;
  state: TrackState;
  frames: number | null;
  hash: string | null;
  bytes: number | null;
  created_at: number;
  ended_at: number | null;
}

const toTrack = (r: RawTrack): TrackRow => ({
  id: r.id,
  runId: r.run_id,
  direction: r.direction,
  name: r.name,
  format: r.format,
  sampleRate: r.sample_rate,
  channels: r.channels,
  startMs: r.start_ms,
  state: r.state,
  frames: r.frames,
  hash: r.hash,
  bytes: r.bytes,
  createdAt: r.created_at,
  endedAt: r.ended_at,
});

export function insertSession(db: Db, row: { runId: string; kind: string; startedAt: number }): void {
  timed(db, 'insertSession', () =>
    prepare(db, `INSERT INTO recording_sessions (run_id, kind, state, started_at) VALUES (?, ?, 'recording', ?)`).run(row.runId, row.kind, row.startedAt),
  );
}

/** Ends a session still recording; false when it had already ended (or is gone). */
export function endSession(db: Db, runId: string, end: { state: Exclude<SessionState, 'recording'>; endedAt: number; reason?: string | null }): boolean {
  return timed(db, 'endSession', () =>
    prepare(db, `UPDATE recording_sessions SET state = ?, ended_at = ?, end_reason = ? WHERE run_id = ? AND state = 'recording'`).run(end.state, end.endedAt, end.reason ?? null, runId).changes > 0,
  );
}

export function getSession(db: Db, runId: string): SessionRow | null {
  const r = timed(db, 'getSession', () =>
    prepare<[string], { run_id: string; kind: string; state: SessionState; started_at: number; ended_at: number | null; end_reason: string | null }>(
      db,
      'SELECT run_id, kind, state, started_at, ended_at, end_reason FROM recording_sessions WHERE run_id = ?',
    ).get(runId),
  );
  return r ? { runId: r.run_id, kind: r.kind, state: r.state, startedAt: r.started_at, endedAt: r.ended_at, endReason: r.end_reason } : null;
}

/** Sessions a crash left recording (start-up finalises them). */
export function liveSessionIds(db: Db): string[] {
  return timed(db, 'liveSessionIds', () => prepare<[], string>(db, `SELECT run_id FROM recording_sessions WHERE state = 'recording'`).pluck().all());
}

export function insertTrack(db: Db, row: Pick<TrackRow, 'id' | 'runId' | 'direction' | 'name' | 'sampleRate' | 'channels' | 'startMs' | 'createdAt'>): void {
  timed(db, 'insertTrack', () =>
    prepare(
      db,
      `INSERT INTO audio_tracks (id, run_id, direction, name, format, sample_rate, channels, start_ms, state, created_at)
       VALUES (@id, @runId, @direction, @name, 'pcm_s16le', @sampleRate, @channels, @startMs, 'recording', @createdAt)`,
    ).run(row),
  );
}

/**
 * Records what a track became: its WAV blob (already on disk; the reference is taken here, in
 * the same transaction) and its length, or `lost` with no blob. Only a track still recording is
 * changed; returns whether it was.
 */
export function finishTrack(db: Db, id: string, end: { state: Exclude<TrackState, 'recording'>; frames: number | null; blob: (BlobInfo & { mime: string }) | null; endedAt: number }): boolean {
  return timed(db, 'finishTrack', () =>
    db.transaction(() => {
      const changed =
        prepare(db, `UPDATE audio_tracks SET state = ?, frames = ?, hash = ?, bytes = ?, ended_at = ? WHERE id = ? AND state = 'recording'`).run(
          end.state,
          end.frames,
          end.blob?.hash ?? null,
          end.blob?.size ?? null,
          end.endedAt,
          id,
        ).changes > 0;
      if (changed && end.blob) addBlobRef(db, end.blob, end.endedAt);
      return changed;
    })(),
  );
}

export function getTrack(db: Db, id: string): TrackRow | null {
  const r = timed(db, 'getTrack', () => prepare<[string], RawTrack>(db, 'SELECT * FROM audio_tracks WHERE id = ?').get(id));
  return r ? toTrack(r) : null;
}

/** The tracks of run `runId`, in the order they were opened. */
export function tracksOfRun(db: Db, runId: string): TrackRow[] {
  return timed(db, 'tracksOfRun', () => prepare<[string], RawTrack>(db, 'SELECT * FROM audio_tracks WHERE run_id = ? ORDER BY created_at, rowid').all(runId)).map(toTrack);
}

/** Tracks a crash left recording. */
export function liveTracks(db: Db): TrackRow[] {
  return timed(db, 'liveTracks', () => prepare<[], RawTrack>(db, `SELECT * FROM audio_tracks WHERE state = 'recording' ORDER BY created_at, rowid`).all()).map(toTrack);
}

/** Ids of tracks whose files must stay: still recording, or lost (kept aside for the user). */
export function trackIdsKeepingFiles(db: Db): string[] {
  return timed(db, 'trackIdsKeepingFiles', () => prepare<[], string>(db, `SELECT id FROM audio_tracks WHERE state IN ('recording', 'lost')`).pluck().all());
}

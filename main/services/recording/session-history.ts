/**
 * What History reads of a recorded live session: its state, tracks (each with the URL its WAV
 * plays from), marks and the metrics they give, and its timeline a page at a time. Events are
 * read through History's own `events` (the key scrubbed across page edges), never all at once.
 */
import type { SessionRecord, SessionTimelinePage, SessionTrackRecord } from '../../../shared/contract/history';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { MediaUrl } from '../../../shared/contract/media';
import type { RunEventsPage } from '../../../shared/contract/history';
import { sessionMetrics } from '../../../shared/session-metrics';
import { getSession, tracksOfRun } from '../../store/audio-tracks';
import type { Db } from '../../store/db';
import { marksOfRun } from '../../store/session-marks';
import { firstEventAt, mergeTimeline } from './timeline';

export interface SessionHistoryDeps {
  db: Db;
  /** Events of a run, scrubbed (HistoryService.events). */
  events: (id: string, offset: number, limit: number) => RunEventsPage;
  mediaUrl?: (hash: string) => Promise<MediaUrl>;
}

function notASession(id: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'not_found', message: `Run ${id} is not a recorded live session (or is no longer in history).` });
}

export async function readSessionRecord(deps: SessionHistoryDeps, id: string): Promise<SessionRecord> {
  const session = getSession(deps.db, id);
  if (!session) throw notASession(id);
  const tracks: SessionTrackRecord[] = [];
  for (const t of tracksOfRun(deps.db, id)) {
    let media: MediaUrl | null = null;
    if (t.hash && deps.mediaUrl) {
      try {
        media = await deps.mediaUrl(t.hash);
      } catch {
        // The blob is gone from the data folder: the track is listed without a player.
      }
    }
    tracks.push({
      id: t.id,
      direction: t.direction,
      name: t.name,
      sampleRate: t.sampleRate,
      channels: t.channels,
      startMs: t.startMs,
      durationMs: t.frames === null ? null : (t.frames * 1000) / t.sampleRate,
      state: t.state,
      media,
    });
  }
  const marks = marksOfRun(deps.db, id);
  const total = deps.events(id, 0, 1).total;
  return {
    id,
    kind: session.kind,
    state: session.state,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    endReason: session.endReason,
    tracks,
    marks,
    metrics: sessionMetrics(marks),
    timelineTotal: total + marks.length,
  };
}

/** Timeline items `offset .. offset+limit` (events and marks in one order). */
export function readSessionTimeline(deps: SessionHistoryDeps, id: string, offset: number, limit: number): SessionTimelinePage {
  if (!getSession(deps.db, id)) throw notASession(id);
  const marks = marksOfRun(deps.db, id);
  const start = firstEventAt(marks, offset);
  const page = deps.events(id, start.event, limit);
  const total = page.total + marks.length;
  return { items: offset >= total ? [] : mergeTimeline(marks, page.events, start, offset, limit), offset, total };
}

/**
 * Start-up: live sessions a crash (or a kill) left recording are finalised, not swept. Each track
 * still `recording` becomes a WAV blob of every whole frame its file holds (the row marked
 * `crashed`); each session still `recording` is ended as `crashed`, its run marked incomplete
 * with a message saying the app stopped during the session and how much was kept; a call (audio
 * both ways) gets its stereo WAV afterwards (mixRecoveredCalls). Files left in
 * the tracks folder by anything else (a track whose row was already finished when the crash came
 * between the row and the unlink, a session whose run was deleted) are removed.
 *
 * A session kind may rebuild its output from the recorded events (`outputs`, given by the app: a
 * realtime call's transcript lives in main's memory until the call stops, so a kill leaves the run
 * without one); the run then says what was said up to the kill.
 *
 * Safe to run again after a crash during itself: a track's row changes only after its blob is on
 * disk, and its files go only after the row changed. Run it before any session of this process
 * opens a track (the folder is then only leftovers). The blob store's own start-up sweeps never
 * look in the tracks folder (they walk `<dataDir>/blobs`), and the blob written here holds a
 * reference from the moment its row changes.
 */
import { readdir } from 'node:fs/promises';
import type { WorkbenchError } from '../../../shared/contract/errors';
import type { CapturedEvent } from '../../../shared/contract/runs';
import { endSession, finishTrack, getSession, liveSessionIds, liveTracks, trackIdsKeepingFiles, tracksOfRun } from '../../store/audio-tracks';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { readRunEvents } from '../../store/run-events';
import { getRun, updateRun, type RunUpdate } from '../../store/runs';
import { lastMarkMs } from '../../store/session-marks';
import { galleryItemsOfRun } from '../../store/gallery';
import { finaliseTrackFile, readTrackHeader, removeTrackFiles } from '../../store/track-files';
import { keepSessionMix, mixInputOf } from './session-mix';

export interface RecoveryReport {
  tracks: number;
  sessions: number;
  /** Stray files removed from the tracks folder. */
  removed: number;
  /** Crashed sessions with audio both ways (calls) that still need their stereo WAV (mixRecoveredCalls). */
  calls: string[];
  /** Sessions whose output was rebuilt from their events (a kind may add to it later: priceRecoveredCalls). */
  rebuilt: string[];
}

/** A run's output rebuilt from its recorded events (what a clean close would have written). */
export type RecoveredOutput = Required<Pick<RunUpdate, 'output' | 'outputText' | 'outputPreview'>> & Pick<RunUpdate, 'costTicks'>;

/** Per session kind (`realtime`, …): the output of a session the app did not end, from its events (null: none to give). */
export type SessionOutputRebuilders = Partial<Record<string, (runId: string, events: Iterable<CapturedEvent>) => RecoveredOutput | null>>;

/** Events are read back this many at a time (a long call's log is never in memory whole). */
const EVENTS_PAGE = 2000;

export async function recoverRecordings(
  db: Db,
  blobs: BlobStore,
  tracksDir: string,
  options: { now?: number; log?: (line: string) => void; outputs?: SessionOutputRebuilders } = {},
): Promise<RecoveryReport> {
  const now = options.now ?? Date.now();
  const report: RecoveryReport = { tracks: 0, sessions: 0, removed: 0, calls: [], rebuilt: [] };
  for (const track of liveTracks(db)) {
    // The sidecar describes the file; the row (written first) stands in if the sidecar never made it.
    const header = (await readTrackHeader(tracksDir, track.id)) ?? track;
    try {
      const blob = await finaliseTrackFile(blobs, tracksDir, { id: track.id, sampleRate: header.sampleRate, channels: header.channels });
      finishTrack(db, track.id, { state: 'crashed', frames: blob.frames, blob: { hash: blob.hash, size: blob.size, mime: 'audio/wav' }, endedAt: now });
    } catch (error) {
      // An unreadable file must not stop every start: the track is said lost and its file kept aside for the user.
      options.log?.(`recording: track ${track.id} could not be finalised (${error instanceof Error ? error.message : String(error)}); marked lost`);
      finishTrack(db, track.id, { state: 'lost', frames: null, blob: null, endedAt: now });
      continue;
    }
    await removeTrackFiles(tracksDir, track.id);
    report.tracks++;
  }
  for (const runId of liveSessionIds(db)) {
    const session = getSession(db, runId);
    if (!session) continue;
    if (mixInputOf(db, runId, 'in') && mixInputOf(db, runId, 'out') && !hasMix(db, runId)) report.calls.push(runId);
    const keptMs = recordedLength(db, runId);
    const error = crashError(keptMs);
    const output = rebuiltOutput(db, runId, session.kind, options);
    db.transaction(() => {
      endSession(db, runId, { state: 'crashed', endedAt: session.startedAt + Math.round(keptMs), reason: error.message });
      const run = getRun(db, runId);
      if (run && (run.status === 'pending' || run.status === 'incomplete')) {
        updateRun(db, runId, { status: 'incomplete', error, timings: { ...run.timings, totalMs: Math.round(keptMs) }, ...(output && run.output === null ? output : {}) }, now);
        if (output && run.output === null) report.rebuilt.push(runId);
      }
    })();
    report.sessions++;
  }
  report.removed = await removeStrays(db, tracksDir);
  if (report.tracks + report.sessions > 0) options.log?.(`recording: finalised ${report.tracks} track(s) of ${report.sessions} session(s) interrupted by the last shutdown`);
  return report;
}

/**
 * Makes the stereo WAV a clean close would have made for each crashed call. Seconds of work for a
 * long call (the resampler), so the app runs it after start-up rather than before; a failure
 * leaves the tracks, which are the recording.
 */
export async function mixRecoveredCalls(db: Db, blobs: BlobStore, runIds: readonly string[], options: { now?: number; log?: (line: string) => void } = {}): Promise<number> {
  let made = 0;
  for (const runId of runIds) {
    if (!db.open) break;
    const session = getSession(db, runId);
    if (!session || hasMix(db, runId)) continue;
    try {
      if (await keepSessionMix(db, blobs, runId, `${session.kind} (ended abnormally).wav`, options.now ?? Date.now())) made++;
    } catch (error) {
      options.log?.(`recording: the stereo mix of session ${runId} could not be made (${error instanceof Error ? error.message : String(error)}); its tracks are kept`);
    }
  }
  return made;
}

/** The session kind's output rebuilt from its events, or null (no rebuilder, nothing to give, or it failed: the run stays without). */
function rebuiltOutput(db: Db, runId: string, kind: string, options: { log?: (line: string) => void; outputs?: SessionOutputRebuilders }): RecoveredOutput | null {
  const rebuild = options.outputs?.[kind];
  if (!rebuild) return null;
  try {
    return rebuild(runId, recordedEvents(db, runId));
  } catch (error) {
    options.log?.(`recording: the output of session ${runId} could not be rebuilt from its events (${error instanceof Error ? error.message : String(error)}); its events are kept`);
    return null;
  }
}

/** A run's recorded events in order, read a page at a time (a long call's log is never in memory whole). */
export function* recordedEvents(db: Db, runId: string): Generator<CapturedEvent> {
  for (let offset = 0; ; offset += EVENTS_PAGE) {
    const page = readRunEvents(db, runId, offset, EVENTS_PAGE);
    if (!page || page.events.length === 0) return;
    yield* page.events;
  }
}

/** Whether a recorded mix is already in the gallery (a start-up that crashed after making it). */
function hasMix(db: Db, runId: string): boolean {
  return galleryItemsOfRun(db, runId).some((g) => g.kind === 'audio' && g.origin === 'recorded');
}

/** How far the session got: its longest track, its last mark or its last event, whichever is latest. */
function recordedLength(db: Db, runId: string): number {
  let ms = 0;
  for (const t of tracksOfRun(db, runId)) if (t.frames !== null) ms = Math.max(ms, t.startMs + (t.frames * 1000) / t.sampleRate);
  ms = Math.max(ms, lastMarkMs(db, runId) ?? 0);
  const total = readRunEvents(db, runId, 0, 0)?.total ?? 0;
  const last = total > 0 ? readRunEvents(db, runId, total - 1, 1)?.events[0] : undefined;
  return Math.max(ms, last?.t ?? 0);
}

function crashError(keptMs: number): WorkbenchError {
  return {
    code: 'stream_incomplete',
    message: `The app stopped during this session (a crash or a forced quit), so it ended abnormally. Its recording and events were kept up to ${clock(keptMs)}; anything after that is lost.`,
  };
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.${String(Math.floor(ms % 1000)).padStart(3, '0')}`;
}

/** Files in the tracks folder no recording track owns (none should be left once the loop above ran). */
async function removeStrays(db: Db, tracksDir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tracksDir);
  } catch {
    return 0;
  }
  const live = new Set(trackIdsKeepingFiles(db));
  const ids = new Set(names.map((n) => n.replace(/\.(pcm|json|json\.tmp)$/, '')).filter((id) => /^[A-Za-z0-9_-]{1,80}$/.test(id) && !live.has(id)));
  for (const id of ids) await removeTrackFiles(tracksDir, id);
  return ids.size;
}

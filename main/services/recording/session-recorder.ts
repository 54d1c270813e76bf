/**
 * Records one live session (a live transcription, streamed speech, a realtime or SIP call) as a
 * History run while it runs: its events both ways (chunked into `run_event_chunks` as they come,
 * through the connection's key scrubber, so 50,000 events never sit in memory), one audio track
 * per direction appended to a file (audio events carry a reference into it, not the bytes), and
 * typed marks on the session clock. `close()` finalises every track into a WAV blob and ends the
 * run; `abort()` does the same for a session that failed. A session the app never closed (a
 * crash, a kill) is finalised by recoverRecordings() at the next start.
 *
 * It knows nothing of main/live: a live session calls it.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WorkbenchFailure, type WorkbenchError } from '../../../shared/contract/errors';
import type { AudioRef, CapturedEvent, EventDirection, EventKind, RunStatus } from '../../../shared/contract/runs';
import type { SessionMarkType } from '../../../shared/session-metrics';
import { SecretScrubber } from '../../api/secret-scrubber';
import { endSession, finishTrack, getSession, insertSession, insertTrack } from '../../store/audio-tracks';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import type { NewRun, RunUpdate } from '../../store/runs';
import { insertMark } from '../../store/session-marks';
import { finaliseTrackFile, removeTrackFiles, TrackWriter } from '../../store/track-files';
import { RunRecorder } from '../run-recorder';
import { keepSessionMix, type KeptMix } from './session-mix';

export interface SessionRecorderDeps {
  db: Db;
  blobs: BlobStore;
  /** `<dataDir>/tracks`: where tracks grow while their session runs. */
  tracksDir: string;
  /** Wall clock (ms since the epoch). */
  now?: () => number;
  /** Monotonic clock (ms): the session clock runs on it. */
  clock?: () => number;
  /** Masks the connection's key in every captured event. */
  scrubber?: SecretScrubber;
  /** How long appended audio may wait before it is written and synced (default 250 ms). */
  flushMs?: number;
}

export interface OpenSessionInput {
  /** The run History lists (status is set here: pending until the session ends). */
  run: Omit<NewRun, 'status'>;
  /** What the session is: 'transcription', 'speech', 'realtime', 'sip', ... */
  kind: string;
}

export interface TrackOptions {
  sampleRate: number;
  channels?: number;
  name?: string;
  /** Where the first sample sits on the session clock (default: now). */
  startMs?: number;
}

/** A captured event as a live session hands it over (`t` defaults to now on the session clock). */
export interface SessionEvent {
  direction: EventDirection;
  kind: Exclude<EventKind, 'audio'>;
  data: string;
  event?: string;
  t?: number;
}

export interface SessionEnd {
  status: RunStatus;
  durationMs: number;
  tracks: Array<{ id: string; direction: EventDirection; frames: number; hash: string }>;
  /** The call's stereo WAV in the media library, when asked for. */
  mix: KeptMix | null;
}

export interface EndOptions {
  /** Keep a stereo WAV of the tracks (microphone left, model right) in the gallery, named `name`. */
  stereoMix?: { name?: string };
}

type Track = { id: string; writer: TrackWriter };

export class SessionRecorder {
  private readonly tracks = new Map<EventDirection, Track>();
  private eventCount = 0;
  private ended: Promise<SessionEnd> | null = null;

  private constructor(
    private readonly deps: SessionRecorderDeps,
    private readonly events: RunRecorder,
    readonly runId: string,
    /** Wall-clock start (ms since the epoch). */
    readonly startedAt: number,
    private readonly t0: number,
  ) {}

  /** Inserts the run (pending) and its session row in one transaction. */
  static open(deps: SessionRecorderDeps, input: OpenSessionInput): SessionRecorder {
    const now = deps.now ?? Date.now;
    const clock = deps.clock ?? (() => performance.now());
    const startedAt = input.run.createdAt;
    let events!: RunRecorder;
    deps.db.transaction(() => {
      events = RunRecorder.start(deps.db, { ...input.run, status: 'pending' }, now, undefined, deps.scrubber ?? SecretScrubber.NONE);
      insertSession(deps.db, { runId: input.run.id, kind: input.kind, startedAt });
    })();
    return new SessionRecorder(deps, events, input.run.id, startedAt, clock());
  }

  /** Milliseconds since the session started. */
  sessionMs(): number {
    return (this.deps.clock ?? (() => performance.now()))() - this.t0;
  }

  /** Opens the track of one direction (the row first, then its files: a crash in between leaves an empty track, not a lost one). */
  async openTrack(direction: EventDirection, options: TrackOptions): Promise<string> {
    this.assertOpen();
    if (this.tracks.has(direction)) throw new Error(`session ${this.runId} already has an '${direction}' track`);
    const id = `trk_${randomUUID().replace(/-/g, '')}`;
    const channels = options.channels ?? 1;
    const startMs = options.startMs ?? this.sessionMs();
    const createdAt = (this.deps.now ?? Date.now)();
    insertTrack(this.deps.db, { id, runId: this.runId, direction, name: options.name ?? '', sampleRate: options.sampleRate, channels, startMs, createdAt });
    const writer = await TrackWriter.open(
      this.deps.tracksDir,
      { id, runId: this.runId, direction, format: 'pcm_s16le', sampleRate: options.sampleRate, channels, startMs, startedAt: createdAt },
      { flushMs: this.deps.flushMs },
    );
    this.tracks.set(direction, { id, writer });
    return id;
  }

  /**
   * Appends audio (interleaved s16le) to the track of `direction` and captures it as an audio
   * event whose reference says where it went. `atMs` places it on the session clock: a track
   * that is behind (the model was silent) is padded with silence first, so tracks line up.
   * `frame` is what the event shows instead of the bytes (e.g. the JSON frame minus its base64).
   */
  audio(direction: EventDirection, pcm: Uint8Array, options: { atMs?: number; frame?: { event?: string; data?: string }; t?: number } = {}): AudioRef {
    const track = this.trackOf(direction);
    const { writer } = track;
    if (pcm.byteLength % writer.frameBytes !== 0) throw new Error(`session ${this.runId}: ${pcm.byteLength} bytes is not a whole number of ${writer.frameBytes}-byte frames`);
    const offsetMs = this.appendTo(direction, track, pcm, options.atMs);
    const ref: AudioRef = { track: track.id, offsetMs, durationMs: writer.durationMs - offsetMs, bytes: pcm.byteLength };
    this.capture({ t: options.t ?? this.sessionMs(), direction, kind: 'audio', data: options.frame?.data ?? '', audio: ref, ...(options.frame?.event ? { event: options.frame.event } : {}) });
    return ref;
  }

  /** Appends (after the silence that puts it at `atMs`); returns where it starts in the track. A failed write is a value the session can show. */
  private appendTo(direction: EventDirection, track: Track, pcm: Uint8Array, atMs: number | undefined): number {
    const { writer } = track;
    try {
      if (atMs !== undefined) {
        const behind = Math.round(((atMs - writer.header.startMs) * writer.header.sampleRate) / 1000) - writer.frames;
        if (behind > 0) writer.append(new Uint8Array(behind * writer.frameBytes));
      }
      const offsetMs = writer.durationMs;
      writer.append(pcm);
      return offsetMs;
    } catch (error) {
      throw new WorkbenchFailure({
        code: 'internal',
        message: `The ${direction === 'in' ? 'incoming' : 'outgoing'} audio of this session can no longer be recorded (${error instanceof Error ? error.message : String(error)}). What was recorded before is kept; free disk space in the data folder for the next session.`,
      });
    }
  }

  /** Milliseconds on the session clock of a time read from the monotonic clock (e.g. a captured frame's `at`). */
  toSessionMs(monotonicMs: number): number {
    return monotonicMs - this.t0;
  }

  /** Captures one event (JSON, text, or base64 binary) going `direction`. */
  event(event: SessionEvent): void {
    this.assertOpen();
    this.capture({ t: event.t ?? this.sessionMs(), direction: event.direction, kind: event.kind, data: event.data, ...(event.event ? { event: event.event } : {}) });
  }

  /** Records a typed mark (written at once: marks are few and metrics come from them). */
  mark(type: SessionMarkType, options: { t?: number; turn?: number | null; data?: Record<string, unknown> } = {}): void {
    this.assertOpen();
    insertMark(this.deps.db, this.runId, { type, t: options.t ?? this.sessionMs(), turn: options.turn ?? null, eventIndex: this.eventCount, data: options.data ?? null });
  }

  /** Changes the run's record while the session runs (model, usage, output text, ...). */
  update(update: RunUpdate): void {
    this.events.update(update);
  }

  /** Writes every event and every appended sample to disk now. */
  async flush(): Promise<void> {
    this.events.flush();
    await Promise.all([...this.tracks.values()].map((t) => t.writer.flush()));
  }

  /**
   * Ends the session: tracks become WAV blobs, the run is finished with `update` (default
   * completed). With `stereoMix`, the call is also kept as one stereo WAV (microphone left, model
   * right) in the media library, linked to the run.
   */
  close(update: RunUpdate = {}, options: EndOptions = {}): Promise<SessionEnd> {
    return (this.ended ??= this.end('ended', { status: 'completed', ...update }, options));
  }

  /** Ends a session that failed: what was recorded is kept, the run says why. */
  abort(error: WorkbenchError, update: RunUpdate = {}, options: EndOptions = {}): Promise<SessionEnd> {
    return (this.ended ??= this.end('aborted', { status: 'error', ...update, error }, options, error.message));
  }

  private async end(state: 'ended' | 'aborted', update: RunUpdate, options: EndOptions, reason?: string): Promise<SessionEnd> {
    const durationMs = this.sessionMs();
    const now = (this.deps.now ?? Date.now)();
    const tracks: SessionEnd['tracks'] = [];
    const problems: string[] = [];
    for (const [direction, track] of this.tracks) {
      // A track whose writes failed is still finalised from what reached the disk.
      await track.writer.close().catch((error: unknown) => problems.push(`the ${direction === 'in' ? 'incoming' : 'outgoing'} track stopped early (${error instanceof Error ? error.message : String(error)})`));
      if (!getSession(this.deps.db, this.runId)) {
        // The user deleted the run from History while it recorded: nothing is kept.
        await removeTrackFiles(this.deps.tracksDir, track.id);
        continue;
      }
      const blob = await finaliseTrackFile(this.deps.blobs, this.deps.tracksDir, { id: track.id, sampleRate: track.writer.header.sampleRate, channels: track.writer.header.channels });
      finishTrack(this.deps.db, track.id, { state: 'closed', frames: blob.frames, blob: { hash: blob.hash, size: blob.size, mime: 'audio/wav' }, endedAt: now });
      await removeTrackFiles(this.deps.tracksDir, track.id);
      tracks.push({ id: track.id, direction, frames: blob.frames, hash: blob.hash });
    }
    const status = update.status ?? 'completed';
    if (!getSession(this.deps.db, this.runId)) return { status, durationMs, tracks: [], mix: null };
    const mix = options.stereoMix ? await keepSessionMix(this.deps.db, this.deps.blobs, this.runId, options.stereoMix.name ?? '', now) : null;
    this.deps.db.transaction(() => {
      this.events.finish({ ...update, status, timings: update.timings ?? { startedAt: this.startedAt, ttfbMs: null, totalMs: Math.round(durationMs) } });
      endSession(this.deps.db, this.runId, { state, endedAt: now, reason: [reason, ...problems].filter(Boolean).join('; ') || null });
    })();
    return { status, durationMs, tracks, mix };
  }

  private capture(event: CapturedEvent): void {
    this.assertOpen();
    this.eventCount++;
    this.events.event(event);
  }

  private trackOf(direction: EventDirection): Track {
    this.assertOpen();
    const track = this.tracks.get(direction);
    if (!track) throw new Error(`session ${this.runId} has no '${direction}' track: open it first`);
    return track;
  }

  private assertOpen(): void {
    if (this.ended) throw new Error(`session ${this.runId} has ended`);
  }
}

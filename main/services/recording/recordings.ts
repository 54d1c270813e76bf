/**
 * The recording service a live session uses: `open()` starts a SessionRecorder on the app's
 * database, blob store and tracks folder. `openRecordings()` is built once at start-up and first
 * finalises what the last process left recording (recover.ts), before any new track can appear in
 * the folder; the stereo WAVs of crashed calls follow in the background (`settled()`).
 */
import { join } from 'node:path';
import { SecretScrubber } from '../../api/secret-scrubber';
import type { BlobStore } from '../../store/blobs';
import type { Db } from '../../store/db';
import { mixRecoveredCalls, recoverRecordings, type RecoveryReport, type SessionOutputRebuilders } from './recover';
import { SessionRecorder, type OpenSessionInput } from './session-recorder';

export interface RecordingsOptions {
  db: Db;
  blobs: BlobStore;
  dataDir: string;
  log?: (line: string) => void;
  /** Appended audio waits at most this long before it is written and synced (default 250 ms). */
  flushMs?: number;
  /** Per session kind: its output rebuilt from the events of a session the last process did not end (recover.ts). */
  outputs?: SessionOutputRebuilders;
}

export class Recordings {
  readonly tracksDir: string;
  private background: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RecordingsOptions, readonly recovered: RecoveryReport) {
    this.tracksDir = join(options.dataDir, 'tracks');
  }

  /** Resolves once start-up's background work (the stereo WAVs of crashed calls) is done; the app awaits it before closing the database. */
  settled(): Promise<void> {
    return this.background.then(() => undefined, () => undefined);
  }

  /** Runs `work` after what is already running in the background. */
  inBackground(work: () => Promise<unknown>): void {
    this.background = this.settled().then(work);
  }

  /** Starts recording a live session as a History run (pending until it is closed or aborted). */
  open(input: OpenSessionInput, scrubber: SecretScrubber = SecretScrubber.NONE): SessionRecorder {
    const { db, blobs, flushMs } = this.options;
    return SessionRecorder.open({ db, blobs, tracksDir: this.tracksDir, scrubber, flushMs }, input);
  }
}

/** Finalises the sessions a crash left recording, then offers recording to this process's sessions. */
export async function openRecordings(options: RecordingsOptions): Promise<Recordings> {
  const recovered = await recoverRecordings(options.db, options.blobs, join(options.dataDir, 'tracks'), { log: options.log, outputs: options.outputs });
  const recordings = new Recordings(options, recovered);
  if (recovered.calls.length > 0) recordings.inBackground(() => mixRecoveredCalls(options.db, options.blobs, recovered.calls, { log: options.log }));
  return recordings;
}

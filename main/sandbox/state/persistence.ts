/**
 * A sandbox's state folder: what a restart keeps, so the sandbox behaves like a real service
 * that was briefly unreachable rather than one that forgot everything.
 *
 *   <dir>/clock.json      how far /sandbox/clock/advance moved the clock
 *   <dir>/deferred.json   deferred completions (pending and done) and recent Idempotency-Keys
 *   <dir>/responses.json  stored responses within their 30 days
 *   <dir>/files.json      file records; their bytes are in <dir>/files/ (the store's folder)
 *   <dir>/videos.json     video jobs and the plans of made videos; their bytes are in <dir>/videos/
 *   <dir>/compaction-secret  the key compaction items are signed with
 *   <dir>/custom-voices.json custom voices; their reference clips are in <dir>/custom-voices/
 *   <dir>/phone-numbers.json registered phone numbers, their webhooks and signing secrets
 *
 * Each JSON snapshot is written atomically, at most `debounceMs` after a change and on close().
 * A change that hands the client a new id (a deferred request id, an uploaded file, a stored
 * response, a public URL) is written at the next turn of the event loop instead: the client keeps
 * that id, and a crash must not leave it pointing at nothing.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../clock';
import type { DeferredStore } from '../deferred';
import type { FileStore } from '../files/store';
import type { ResponseStore } from '../responses/store';
import type { VideoJobStore } from '../video/store';
import type { PhoneNumberStore } from '../sip/numbers';
import type { CustomVoiceStore } from '../voices/store';
import { ensurePrivateFolder, loadOrCreateSecret, securePrivateFolder } from './key-file';
import { num, obj } from './shape';
import { readSnapshot, SnapshotFile } from './snapshot-file';

export interface SandboxStateOptions {
  dir: string;
  clock: Clock;
  deferred: DeferredStore;
  responses: ResponseStore;
  files: FileStore;
  /** Video jobs (their bytes live in stateVideosDir(dir), kept by the video service itself). */
  videos?: VideoJobStore;
  /** Custom voices (their clips live in stateCustomVoicesDir(dir), written by the store itself). */
  customVoices?: CustomVoiceStore;
  /** Registered phone numbers with their webhooks and signing secrets. */
  phoneNumbers?: PhoneNumberStore;
  log: (line: string) => void;
  /** Longest wait between a change and its snapshot being written; default 250. */
  debounceMs?: number;
}

export interface SandboxState {
  /** Writes every snapshot with unsaved changes now. */
  flush(): void;
  /** Flushes and stops saving (the stores' later changes are not written). */
  close(): void;
}

/** Where a state folder keeps the files' bytes (the FileStore's `dir`). */
export function stateFilesDir(dir: string): string {
  return join(dir, 'files');
}

/** Where a state folder keeps the videos' bytes and input pictures (VideoMedia's folder). */
export function stateVideosDir(dir: string): string {
  return join(dir, 'videos');
}

/** Where a state folder keeps custom voices' reference clips. */
export function stateCustomVoicesDir(dir: string): string {
  return join(dir, 'custom-voices');
}

/** The compaction signing secret of a state folder, made on first use. */
export function stateCompactionSecret(dir: string, log: (line: string) => void): Buffer {
  return Buffer.from(loadOrCreateSecret(join(dir, 'compaction-secret'), () => randomBytes(32).toString('hex'), log), 'hex');
}

/** Restores the stores from `dir` (each on its own: one damaged snapshot empties only its store) and saves their changes. */
export function openSandboxState(options: SandboxStateOptions): SandboxState {
  const { dir, clock, deferred, responses, files, videos, customVoices, phoneNumbers, log } = options;
  securePrivateFolder(dir);
  ensurePrivateFolder(stateFilesDir(dir));
  const now = (): number => clock.now();
  const stores = [
    {
      name: 'clock',
      restore: (data: unknown) => clock.advance(num(obj(data, 'clock snapshot'), 'offsetMs') - clock.offsetMs()),
      serialize: () => ({ offsetMs: clock.offsetMs() }),
      hook: (touch: (created?: boolean) => void) => (clock.onChange = touch),
    },
    {
      name: 'deferred completions',
      file: 'deferred',
      restore: (data: unknown) => deferred.restore(data),
      serialize: () => deferred.snapshot(now()),
      hook: (touch: (created?: boolean) => void) => (deferred.onChange = touch),
    },
    {
      name: 'stored responses',
      file: 'responses',
      restore: (data: unknown) => responses.restore(data),
      serialize: () => responses.snapshot(now()),
      hook: (touch: (created?: boolean) => void) => (responses.onChange = touch),
    },
    {
      name: 'files',
      restore: (data: unknown) => files.restore(data, log),
      serialize: () => files.snapshot(now()),
      hook: (touch: (created?: boolean) => void) => (files.onChange = touch),
    },
    ...(videos
      ? [
          {
            name: 'videos',
            restore: (data: unknown) => videos.restore(data),
            serialize: () => videos.snapshot(),
            hook: (touch: (created?: boolean) => void) => (videos.onChange = touch),
          },
        ]
      : []),
    ...(customVoices
      ? [
          {
            name: 'custom voices',
            file: 'custom-voices',
            restore: (data: unknown) => customVoices.restore(data, log),
            serialize: () => customVoices.snapshot(),
            hook: (touch: (created?: boolean) => void) => (customVoices.onChange = touch),
          },
        ]
      : []),
    ...(phoneNumbers
      ? [
          {
            name: 'phone numbers',
            file: 'phone-numbers',
            restore: (data: unknown) => phoneNumbers.restore(data),
            serialize: () => phoneNumbers.snapshot(),
            hook: (touch: (created?: boolean) => void) => (phoneNumbers.onChange = touch),
          },
        ]
      : []),
  ];
  const snapshots = stores.map((store) => {
    const path = join(dir, `${store.file ?? store.name}.json`);
    readSnapshot(path, store.name, store.restore, log);
    const snapshot = new SnapshotFile(path, store.name, store.serialize, log, options.debounceMs);
    store.hook((created) => snapshot.touch(created === true));
    return snapshot;
  });
  // Whatever the files snapshot said (or if it was damaged), bytes no record owns are removed.
  files.removeStrays();
  let closed = false;
  return {
    flush: () => snapshots.forEach((s) => s.flush()),
    close() {
      if (closed) return;
      closed = true;
      for (const store of stores) store.hook(() => undefined);
      snapshots.forEach((s) => s.flush());
    },
  };
}

/**
 * One store's state on disk as a JSON snapshot. Writes are atomic: the JSON goes to `<path>.tmp`,
 * is fsynced, then renamed over `<path>` (and the folder fsynced), so a crash at any point leaves
 * either the old snapshot or the new one, never half of one. Saves are debounced: a burst of
 * changes costs one write, at most `debounceMs` after the first of them. A snapshot that cannot be
 * read back is moved aside (`<path>.damaged-<time>`) with a log line and the store starts empty:
 * a sandbox never refuses to start over its own state.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** The envelope every snapshot is written in; `v` changes when a store's shape does. */
interface Envelope {
  v: 1;
  savedAt: number;
  data: unknown;
}

/** Test hooks into the write, to stop it where a crash could happen. */
export interface WriteHooks {
  /** Called after the temp file is written and fsynced, before the rename. */
  beforeRename?: () => void;
}

/** Writes `data` to `path` atomically (temp file, fsync, rename, fsync of the folder). */
export function writeSnapshot(path: string, data: unknown, hooks: WriteHooks = {}): void {
  const envelope: Envelope = { v: 1, savedAt: Date.now(), data };
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(envelope));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  hooks.beforeRename?.();
  renameSync(tmp, path);
  fsyncFolder(dirname(path));
}

/**
 * Reads the snapshot at `path` and hands its data to `restore`. Missing: nothing happens. Not
 * JSON, the wrong envelope, or `restore` throwing: the file is moved aside and logged, and false
 * is returned so the caller knows the store is empty. A `.tmp` left by a crash is removed.
 */
export function readSnapshot(path: string, name: string, restore: (data: unknown) => void, log: (line: string) => void): boolean {
  removeQuietly(`${path}.tmp`);
  if (!existsSync(path)) return true;
  try {
    const envelope = JSON.parse(readFileSync(path, 'utf8')) as Partial<Envelope> | null;
    if (typeof envelope !== 'object' || envelope === null || envelope.v !== 1 || !('data' in envelope)) {
      throw new Error('not a version 1 snapshot');
    }
    restore(envelope.data);
    return true;
  } catch (error) {
    const aside = `${path}.damaged-${Date.now()}`;
    try {
      renameSync(path, aside);
    } catch {
      removeQuietly(path);
    }
    log(`sandbox state: the ${name} snapshot could not be read (${(error as Error).message}); moved aside to ${aside}, starting with no ${name}`);
    return false;
  }
}

/**
 * A snapshot that saves itself `debounceMs` after a change (touch()), or at once on flush().
 * A failed write is logged and retried on the next change; the in-memory state stays right.
 */
export class SnapshotFile {
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly name: string,
    private readonly serialize: () => unknown,
    private readonly log: (line: string) => void,
    private readonly debounceMs = 250,
  ) {}

  /**
   * Marks the state changed; the snapshot is written within `debounceMs`, or `soon` at the next
   * turn of the event loop (changes made in the same turn still share one write).
   */
  touch(soon = false): void {
    this.dirty = true;
    if (soon && !this.immediate) this.immediate = setImmediate(() => this.flush());
    if (this.timer || this.immediate) return;
    this.timer = setTimeout(() => this.flush(), this.debounceMs);
    this.timer.unref();
  }

  /** Writes now if anything changed since the last write. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (!this.dirty) return;
    this.dirty = false;
    try {
      writeSnapshot(this.path, this.serialize());
    } catch (error) {
      this.dirty = true;
      this.log(`sandbox state: could not save the ${this.name} snapshot to ${this.path}: ${(error as Error).message}`);
    }
  }
}

/** Makes a rename durable; folders cannot be opened for fsync on Windows, where it is skipped. */
function fsyncFolder(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

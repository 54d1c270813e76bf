/**
 * Files from the user, kept as opaque references. A file the user chose on disk (dialog, Electron
 * drop) is registered by path; bytes that only the page has (browser mode, a File made in the page)
 * are staged: streamed to a temporary file under the staging folder, fsynced and renamed, so a
 * reference never points at half an upload. Services receive only a `ref` and resolve it here,
 * which re-checks the file so a vanished or changed one is reported instead of read. Staged files
 * are bounded in count and in total bytes (uploads in progress included), and an upload must fit
 * on the disk: each is kept until used, released or expired, so without a bound a page (or a
 * script with its token) could fill the disk with 4 GiB files kept for a day.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { constants, createWriteStream, mkdirSync, rmSync, statSync, type Stats } from 'node:fs';
import { access, open, rename, rm, stat, statfs } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { FileRef } from '../../shared/contract/user-files';

export interface UserFilesOptions {
  /** A folder owned by UserFiles alone: emptied at start and at dispose. */
  stagingDir: string;
  log: (line: string) => void;
  now?: () => number;
  /** How long a reference stays valid after it was made (default 24 hours). */
  ttlMs?: number;
  /** How many staged files, and how many bytes of them, may exist at once (default DEFAULT_STAGING_BOUNDS). */
  bounds?: Partial<StagingBounds>;
  /** Bytes free for us on the staging folder's disk (default: statfs). */
  freeBytes?: (dir: string) => Promise<number>;
}

export interface StagingBounds {
  maxFiles: number;
  maxBytes: number;
}

/** Enough for every draft's inputs and a few large uploads at once. */
export const DEFAULT_STAGING_BOUNDS: StagingBounds = { maxFiles: 256, maxBytes: 8 * 1024 ** 3 };

/** Kept free on the disk beyond an upload, so staging never fills it to the last byte. */
const DISK_MARGIN_BYTES = 256 * 1024 ** 2;

/** Staging has no room for an upload; `httpStatus` is what browser mode's route answers (507). */
export class StagingFull extends WorkbenchFailure {
  readonly httpStatus = 507;
}

/** Bytes in binary units, labelled as such. */
function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

const MAKE_ROOM = 'Send or remove some of the files waiting there (finish or cancel uploads, remove inputs you no longer need) and try again; unused ones are deleted after 24 hours.';

async function statfsFree(dir: string): Promise<number> {
  const info = await statfs(dir);
  return info.bavail * info.bsize;
}

/** What a service gets for a ref: where to read it, and what the user called it. */
export interface ResolvedFile {
  path: string;
  name: string;
  size: number;
  type: string;
}

interface Entry extends ResolvedFile {
  createdAt: number;
  mtimeMs: number;
  /** Staged files are ours to delete; registered ones are the user's. */
  staged: boolean;
}

const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

/** A fresh reference id: `ref_` + 128 random bits, base64url. */
export function newFileRef(): string {
  return `ref_${randomBytes(16).toString('base64url')}`;
}

function notFound(message: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'not_found', message });
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/** The registry of references; one per app, disposed with it. */
export class UserFiles {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly bounds: StagingBounds;
  /** Uploads in progress, each holding what it announced or (if more) what arrived so far. */
  private readonly pending = new Set<{ bytes: number }>();
  private disposed = false;

  constructor(private readonly options: UserFilesOptions) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.bounds = { ...DEFAULT_STAGING_BOUNDS, ...options.bounds };
    // Whatever a previous run left (a crash mid-upload) is no one's any more.
    rmSync(options.stagingDir, { recursive: true, force: true });
    mkdirSync(options.stagingDir, { recursive: true, mode: 0o700 });
  }

  /** Makes a reference to a file already on disk; refuses folders and unreadable files. */
  async register(path: string): Promise<FileRef> {
    const name = basename(path);
    let info: Stats;
    try {
      info = await stat(path);
      await access(path, constants.R_OK);
    } catch (err) {
      const code = errno(err);
      if (code === 'ENOENT') throw notFound(`"${name}" does not exist (was it moved or deleted?).`);
      const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message;
      throw new WorkbenchFailure({ code: 'invalid_input', message: `"${name}" cannot be read (${why}).` });
    }
    if (info.isDirectory()) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: `"${name}" is a folder; choose the files inside it instead.` });
    }
    if (!info.isFile()) throw new WorkbenchFailure({ code: 'invalid_input', message: `"${name}" is not a regular file.` });
    return this.add({ path, name, size: info.size, type: '', mtimeMs: info.mtimeMs, staged: false });
  }

  /**
   * Streams `body` to a temporary file, fsyncs and renames it, then registers it. A body that
   * errors, is aborted through `signal`, or differs from `expectedSize` leaves nothing behind.
   * Throws StagingFull, before reading anything when the announced size tells, when staging's
   * bounds or the disk have no room for it.
   */
  async stage(name: string, type: string, body: Readable, expectedSize?: number, signal?: AbortSignal): Promise<FileRef> {
    this.sweep();
    const shown = basename(name) || 'file';
    const reservation = { bytes: expectedSize ?? 0 };
    this.checkRoom(shown, reservation.bytes, true);
    // Held from here on, so an upload that starts while this one waits counts it.
    this.pending.add(reservation);
    try {
      if (expectedSize !== undefined) await this.checkDisk(shown, expectedSize);
      return await this.write(name, type, body, expectedSize, reservation, signal);
    } finally {
      this.pending.delete(reservation);
    }
  }

  private async write(name: string, type: string, body: Readable, expectedSize: number | undefined, reservation: { bytes: number }, signal?: AbortSignal): Promise<FileRef> {
    const id = randomBytes(12).toString('base64url');
    const temp = join(this.options.stagingDir, `${id}.part`);
    const final = join(this.options.stagingDir, `${id}.bin`);
    let written = 0;
    const shown = basename(name) || 'file';
    /** A body of unknown size holds what arrived so far, and is stopped when staging is full. */
    const overflow = (): Error | null => {
      if (written <= reservation.bytes) return null;
      reservation.bytes = written;
      try {
        this.checkRoom(shown, 0, false);
        return null;
      } catch (err) {
        return err as Error;
      }
    };
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        if (expectedSize !== undefined && written > expectedSize) done(new Error(`more than the announced ${expectedSize} bytes arrived`));
        else done(overflow(), chunk);
      },
    });
    const out = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
    try {
      // Opened before anything can abort it: a stream destroyed while its file is still being
      // created closes first and creates the file after, and the clean-up below would miss it.
      // The body may fail while the file opens (a socket gone at once): its error is held here,
      // or it would be an uncaught 'error' event with nobody listening yet.
      let early: unknown = null;
      const holdEarly = (error: unknown): void => {
        early ??= error;
      };
      body.on('error', holdEarly);
      try {
        await once(out, 'open');
      } finally {
        body.off('error', holdEarly);
      }
      if (early !== null) {
        out.destroy();
        throw early;
      }
      await pipeline(body, counter, out, { signal });
      if (expectedSize !== undefined && written !== expectedSize) {
        throw new Error(`the upload ended after ${written} of ${expectedSize} bytes`);
      }
      const sync = await open(temp, 'r');
      try {
        await sync.sync();
      } finally {
        await sync.close();
      }
      await rename(temp, final);
    } catch (err) {
      // A body that fails at once fails the pipeline while the file is still being opened: it is
      // created after that, so the removal waits for the stream to have closed.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await rm(temp, { force: true });
      if (signal?.aborted) throw new WorkbenchFailure({ code: 'cancelled', message: `The upload of "${name}" was cancelled.` });
      if (err instanceof WorkbenchFailure) throw err;
      const detail = err instanceof Error ? err.message : String(err);
      this.options.log(`[user-files] staging "${name}" failed: ${detail}`);
      throw new WorkbenchFailure({ code: 'network', message: `The upload of "${name}" did not complete (${detail}); nothing was kept. Try again.` });
    }
    if (this.disposed) {
      await rm(final, { force: true });
      throw new WorkbenchFailure({ code: 'cancelled', message: 'The workbench is shutting down.' });
    }
    const info = await stat(final);
    return this.add({ path: final, name: basename(name) || 'file', size: written, type, mtimeMs: info.mtimeMs, staged: true });
  }

  /**
   * The file behind `ref`, checked again on disk. Throws `not_found` for an unknown or expired
   * reference and for a file that vanished or changed since it was chosen.
   */
  resolve(ref: string): ResolvedFile {
    const entry = this.entries.get(ref);
    if (!entry || this.expired(entry)) {
      if (entry) this.release(ref);
      throw notFound('This file reference is unknown or has expired; choose the file again.');
    }
    let info: Stats;
    try {
      info = statSync(entry.path);
    } catch {
      throw notFound(`"${entry.name}" is no longer where it was chosen (moved or deleted); choose it again.`);
    }
    if (!info.isFile() || info.size !== entry.size || info.mtimeMs !== entry.mtimeMs) {
      throw notFound(`"${entry.name}" changed after it was chosen (it was ${entry.size} bytes, now ${info.size}); choose it again.`);
    }
    return { path: entry.path, name: entry.name, size: entry.size, type: entry.type };
  }

  /** Forgets `ref` (deleting a staged copy). Returns whether it was known. */
  release(ref: string): boolean {
    const entry = this.entries.get(ref);
    if (!entry) return false;
    this.entries.delete(ref);
    if (entry.staged) {
      rm(entry.path, { force: true }).catch((err: unknown) =>
        this.options.log(`[user-files] could not delete ${entry.path}: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
    return true;
  }

  /** Forgets every reference and empties the staging folder. */
  dispose(): void {
    this.disposed = true;
    this.entries.clear();
    rmSync(this.options.stagingDir, { recursive: true, force: true });
  }

  /**
   * Throws StagingFull when `bytes` more (and, if `newFile`, one more file) would pass the bounds.
   * Uploads in progress count with what they hold.
   */
  private checkRoom(name: string, bytes: number, newFile: boolean): void {
    let files = this.pending.size;
    let used = 0;
    for (const reservation of this.pending) used += reservation.bytes;
    for (const entry of this.entries.values()) {
      if (!entry.staged) continue;
      files++;
      used += entry.size;
    }
    if (newFile && files >= this.bounds.maxFiles) {
      throw new StagingFull({
        code: 'invalid_input',
        message: `Can't take "${name}": the staging folder already holds ${files} ${files === 1 ? 'file' : 'files'}, the most it keeps at once. ${MAKE_ROOM}`,
      });
    }
    if (used + bytes > this.bounds.maxBytes) {
      const size = newFile ? ` (${sizeText(bytes)})` : '';
      throw new StagingFull({
        code: 'invalid_input',
        message: `Can't take "${name}"${size}: files in the staging folder would take more than the ${sizeText(this.bounds.maxBytes)} it keeps at once (${sizeText(used)} now). ${MAKE_ROOM}`,
      });
    }
  }

  /** Throws StagingFull when the disk has no room for `bytes` more (and a margin). */
  private async checkDisk(name: string, bytes: number): Promise<void> {
    let free: number;
    try {
      free = await (this.options.freeBytes ?? statfsFree)(this.options.stagingDir);
    } catch (err) {
      // Not knowing is no reason to refuse: the write itself fails if the disk fills.
      this.options.log(`[user-files] could not read the free space of the staging folder: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (bytes + DISK_MARGIN_BYTES > free) {
      throw new StagingFull({
        code: 'invalid_input',
        message: `Can't take "${name}" (${sizeText(bytes)}): the disk holding the data folder has ${sizeText(free)} free. Free some space and try again.`,
      });
    }
  }

  private add(entry: Omit<Entry, 'createdAt'>): FileRef {
    const ref = newFileRef();
    this.entries.set(ref, { ...entry, createdAt: this.now() });
    return { ref, name: entry.name, size: entry.size, type: entry.type };
  }

  private expired(entry: Entry): boolean {
    return this.now() - entry.createdAt > this.ttlMs;
  }

  /** Drops expired references, so staged copies nobody released do not pile up. */
  private sweep(): void {
    for (const [ref, entry] of this.entries) if (this.expired(entry)) this.release(ref);
  }
}

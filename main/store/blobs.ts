/**
 * The content-addressed blob store: media and large payloads kept on disk under
 * `<dataDir>/blobs/`, named by the SHA-256 of their bytes and fanned out by the hash's first two
 * hex digits (`blobs/ab/ab12…`). A blob is written to a temporary file in the store's own folder
 * (same file system, so the rename is atomic), fsynced, then renamed into place: a reader never
 * sees half a blob, and a crash leaves at most a `.tmp-*` file that `sweepTemps()` removes at the
 * next start. Two writers of the same bytes both succeed and leave one file (the second rename
 * replaces identical bytes). Which blobs are still wanted is the database's business
 * (blob-rows.ts); this class only knows files.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** What a write gives back: the blob's name and its length in bytes. */
export interface BlobInfo {
  hash: string;
  size: number;
}

const HASH = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';

/** True for a well-formed blob name (64 lowercase hex digits). */
export function isBlobHash(value: string): boolean {
  return HASH.test(value);
}

export class BlobStore {
  /** `root` is the store's folder (`<dataDir>/blobs`); created 0700 on first write. */
  constructor(readonly root: string) {}

  /**
   * Where blob `hash` lives on disk (it may not exist). Throws on anything but 64 lowercase hex
   * digits, so a name from a URL or a row can never walk out of the store.
   */
  pathOf(hash: string): string {
    if (!isBlobHash(hash)) throw new Error(`not a blob hash: ${JSON.stringify(hash.slice(0, 80))}`);
    return join(this.root, hash.slice(0, 2), hash);
  }

  /** Stores `data` (bytes or a stream, read with back-pressure) and returns its hash and size. */
  async put(data: Uint8Array | Readable): Promise<BlobInfo> {
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    const temp = join(this.root, `${TEMP_PREFIX}${randomUUID()}`);
    const hasher = createHash('sha256');
    let size = 0;
    const file = await open(temp, 'wx', 0o600);
    try {
      try {
        const chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> = data instanceof Uint8Array ? [data] : (data as AsyncIterable<Uint8Array>);
        for await (const chunk of chunks) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          hasher.update(bytes);
          size += bytes.length;
          await writeAll(file, bytes);
        }
        await file.sync();
      } finally {
        await file.close();
      }
      const hash = hasher.digest('hex');
      const dir = join(this.root, hash.slice(0, 2));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await renameInto(temp, join(dir, hash));
      await syncDir(dir);
      return { hash, size };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  /** Stores the file at `path` (streamed, never read whole into memory). */
  putFile(path: string): Promise<BlobInfo> {
    return this.put(createReadStream(path));
  }

  /** Whether blob `hash` is on disk. False for a malformed hash. */
  async has(hash: string): Promise<boolean> {
    return (await this.stat(hash)) !== null;
  }

  /** The blob's size, or null when it is not on disk (or the hash is malformed). */
  async stat(hash: string): Promise<{ size: number; mtimeMs: number } | null> {
    if (!isBlobHash(hash)) return null;
    try {
      const info = await stat(this.pathOf(hash));
      return info.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
    } catch {
      return null;
    }
  }

  /** Deletes blob `hash`; returns whether it was there. */
  async remove(hash: string): Promise<boolean> {
    try {
      await unlink(this.pathOf(hash));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** Every blob on disk (for the orphan sweep); ignores temporaries and stray names. */
  async list(): Promise<string[]> {
    const out: string[] = [];
    for (const dir of await readdirOrEmpty(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const name of await readdirOrEmpty(join(this.root, dir))) if (isBlobHash(name) && name.startsWith(dir)) out.push(name);
    }
    return out;
  }

  /**
   * Removes temporaries left by writes that never reached their rename (a crash or a kill).
   * Run at start-up, before any write of this process begins. Returns how many were removed.
   */
  async sweepTemps(): Promise<number> {
    let removed = 0;
    for (const name of await readdirOrEmpty(this.root)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      await rm(join(this.root, name), { force: true });
      removed++;
    }
    return removed;
  }
}

async function writeAll(file: Awaited<ReturnType<typeof open>>, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/** rename(2) replaces atomically; Windows refuses to replace a file in use, which for identical bytes is fine. */
async function renameInto(temp: string, target: string): Promise<void> {
  try {
    await rename(temp, target);
  } catch (error) {
    const exists = await stat(target).then(() => true, () => false);
    if (!exists) throw error;
    await rm(temp, { force: true });
  }
}

/** The rename itself is only durable once the folder is synced (POSIX); best effort elsewhere. */
async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a folder for syncing; NTFS journals the rename itself.
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

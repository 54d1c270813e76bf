/**
 * The data folder holds history, keys and logs: only its owner may read it. A folder that already
 * existed (made 0755 by an older build, a restore, or the user) is tightened on every start, not
 * only when this build creates it. Windows has no POSIX modes; there the folder lives in the
 * user's profile, whose ACL already gives the user alone access.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Owner-only modes for the data folder's entries. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';

/**
 * Creates `dir` if missing and makes it 0700, its files 0600 and its subfolders 0700 (bits are
 * only ever removed). Subfolders are not walked: a 0700 folder already hides what is inside, and
 * the blob store can hold many thousands of files. Symbolic links are left alone.
 */
export function securePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!POSIX) return;
  tighten(dir, PRIVATE_DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) tighten(path, PRIVATE_DIR_MODE);
    else if (entry.isFile()) tighten(path, PRIVATE_FILE_MODE);
  }
}

/**
 * Makes sure `path` exists as a 0600 file before a library (SQLite) opens it: SQLite creates its
 * `-wal` and `-shm` files with the database file's mode, so this one decides all three.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  if (POSIX) tighten(path, PRIVATE_FILE_MODE);
}

function tighten(path: string, mode: number): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o777 & ~mode) !== 0) chmodSync(path, stat.mode & mode & 0o777);
}

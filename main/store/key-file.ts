/**
 * Browser mode's KeyStore: API keys in a JSON file only the user can read (0600, folder 0700).
 * Every write goes to a fresh 0600 temp file that is fsynced and renamed over the old one, so a
 * crash leaves either the old keys or the new ones, never a torn file. A file found with looser
 * permissions is tightened on open. Keys never appear in errors or logs.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { KeyStore } from './key-store';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
// Windows has no POSIX modes; the file lives in the user's profile folder instead.
const POSIX = process.platform !== 'win32';

interface KeyFile {
  version: 1;
  keys: Record<string, string>;
}

/** A KeyStore backed by the JSON file at `path` (created on the first set). */
export function createFileKeyStore(path: string): KeyStore {
  const keys = readKeys(path);
  const save = (): void => writeAtomically(path, `${JSON.stringify({ version: 1, keys: Object.fromEntries(keys) } satisfies KeyFile, null, 2)}\n`);
  return {
    backend: 'file',
    get: (id) => keys.get(id) ?? null,
    set(id, key) {
      keys.set(id, key);
      save();
    },
    delete(id) {
      if (keys.delete(id)) save();
    },
  };
}

function readKeys(path: string): Map<string, string> {
  if (!existsSync(path)) return new Map();
  if (POSIX && (statSync(path).mode & 0o077) !== 0) chmodSync(path, FILE_MODE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw unreadable(path);
  }
  const stored = (parsed as Partial<KeyFile> | null)?.keys;
  if (typeof stored !== 'object' || stored === null) throw unreadable(path);
  return new Map(Object.entries(stored).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function writeAtomically(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', FILE_MODE);
  let open = true;
  try {
    writeSync(fd, text);
    fsyncSync(fd);
    open = false;
    closeSync(fd);
    // The process umask can only remove bits, but be explicit: the key never exists wider.
    if (POSIX) chmodSync(temp, FILE_MODE);
    renameSync(temp, path);
  } catch (error) {
    // Never close twice: the number may already belong to another file.
    if (open) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // nothing to clean up
    }
    throw error;
  }
  if (POSIX) syncDirectory(dir);
}

/** Makes the rename itself durable; best effort, as some file systems refuse. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // the data is written; only the rename's durability is weaker
  }
}

function unreadable(path: string): WorkbenchFailure {
  return new WorkbenchFailure({
    code: 'config',
    message: `The API key file ${path} is not readable JSON. Fix or delete it, then enter your API keys again.`,
  });
}

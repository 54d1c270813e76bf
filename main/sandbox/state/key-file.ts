/**
 * Secrets the sandbox keeps across launches when it has a state folder: the embedded sandbox's
 * API key and the compaction signing secret. Each is one line in its own file (mode 0600, in a
 * 0700 folder), made once and read back on every later launch. Modes are enforced on every
 * launch, not only when a file is made: a folder made by an older build (or restored from a
 * backup) keeps its 0644 files otherwise, and the key is read, never rewritten.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateKey } from '../auth';

/**
 * The content of `path`, or a fresh `make()` written there when the file is missing or unusable
 * (empty, or with spaces: the file was damaged, and a new secret is better than no start).
 */
export function loadOrCreateSecret(path: string, make: () => string, log: (line: string) => void = () => undefined): string {
  ensurePrivateFolder(dirname(path));
  let existing: string | null = null;
  try {
    existing = readFileSync(path, 'utf8').trim();
  } catch {
    // first launch
  }
  if (existing && !/\s/.test(existing)) {
    tightenMode(path, PRIVATE_FILE_MODE);
    return existing;
  }
  if (existing !== null) log(`sandbox state: ${path} was not usable; made a new one`);
  const value = make();
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${value}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return value;
}

/** Where the embedded sandbox's key file is in its state folder `dir`. */
export function sandboxKeyFile(dir: string): string {
  return join(dir, 'key');
}

/** The embedded sandbox's API key, kept at `<dir>/key` (ConnectionsService uses it as the sandbox connection's key). */
export function loadOrCreateSandboxKey(dir: string, log?: (line: string) => void): string {
  return loadOrCreateSecret(sandboxKeyFile(dir), generateKey, log);
}

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Windows has no POSIX modes (the data folder's ACL is the user's alone there). */
const POSIX = process.platform !== 'win32';

/** Creates `dir` (and parents) and makes it owner-only; chmod is best effort on systems without modes. */
export function ensurePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tightenMode(dir, PRIVATE_DIR_MODE);
}

/**
 * `ensurePrivateFolder`, and every file directly inside made 0600 (the key, the compaction
 * secret, the port, the snapshots). Subfolders are made 0700 but not walked: that hides what is
 * inside, and `files/` can hold many thousands of uploads (each written 0600 anyway).
 */
export function securePrivateFolder(dir: string): void {
  ensurePrivateFolder(dir);
  if (!POSIX) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) tightenMode(join(dir, entry.name), PRIVATE_DIR_MODE);
    else if (entry.isFile()) tightenMode(join(dir, entry.name), PRIVATE_FILE_MODE);
  }
}

/** Removes the bits `mode` does not allow (never adds any); symbolic links are left alone. */
export function tightenMode(path: string, mode: number): void {
  if (!POSIX) return;
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o777 & ~mode) !== 0) chmodSync(path, stat.mode & mode & 0o777);
  } catch {
    // gone meanwhile, or a file system without modes
  }
}

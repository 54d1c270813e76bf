/**
 * Secrets the sandbox keeps across launches when it has a state folder: the embedded sandbox's
 * API key and the compaction signing secret. Each is one line in its own file (mode 0600, in a
 * 0700 folder), made once and read back on every later launch.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
  if (existing && !/\s/.test(existing)) return existing;
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

/** Creates `dir` (and parents) and makes it owner-only; chmod is best effort on systems without modes. */
export function ensurePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not supported here
  }
}

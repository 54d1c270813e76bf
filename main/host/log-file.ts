/**
 * The one logger of main: scoped lines (`[scope] message`) written to `<dir>/workbench.log` as well
 * as stderr, because an installed app has no terminal to read. The file is private (0600),
 * rotated by size (workbench.log.1 is the newest old one, up to `keep` of them), and every line
 * is scrubbed of secrets before it goes anywhere. Writes are synchronous: the line about a crash
 * must be on disk before the process goes.
 */
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { SecretScrubber } from '../api/secret-scrubber';
import { LOG_MASK, redact } from './redact';

export interface LoggerOptions {
  /** The log folder (`<dataDir>/logs`); created 0700 if missing. */
  dir: string;
  /** Also write each line to stderr (default true). */
  stderr?: boolean;
  /** Rotate when the file would grow past this (default 1 MiB). */
  maxBytes?: number;
  /** Old files kept: workbench.log.1 ... .keep (default 3). */
  keep?: number;
  /** Secrets known by value, masked wherever they appear. */
  secrets?: Iterable<string>;
  now?: () => Date;
}

/** A scoped view of the log; scopes share the file, the rotation and the secrets. */
export interface Logger {
  /** Where the current log file is. */
  readonly path: string;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A child whose lines carry `[name]` (nested: `[parent/name]`). */
  scope(name: string): Logger;
  /** The `(line) => void` services take: an info line in this scope. */
  readonly line: (line: string) => void;
  /** Masks `secret` from now on (a key the user just saved, the page token). */
  addSecret(secret: string): void;
  /** Closes the file; later lines go to stderr only. */
  close(): void;
}

export const LOG_FILE_NAME = 'workbench.log';

type Level = 'INFO' | 'WARN' | 'ERROR';

/** Opens (or creates) the log under `options.dir` and returns its root logger. */
export function createLogger(options: LoggerOptions): Logger {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = Math.max(0, options.keep ?? 3);
  const toStderr = options.stderr ?? true;
  const now = options.now ?? (() => new Date());
  const secrets = new Set(options.secrets ?? []);
  // Rebuilt when a secret is added (rare); every line is masked with it.
  let known = new SecretScrubber(secrets, LOG_MASK);
  const path = join(options.dir, LOG_FILE_NAME);
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });

  let fd: number | null = null;
  let size = 0;
  const openFile = () => {
    fd = openSync(path, 'a', 0o600);
    // A file left by an older version (or created under another umask) is made private too.
    chmodSync(path, 0o600);
    size = fstatSync(fd).size;
  };
  const rotate = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
    if (keep === 0) rmSync(path, { force: true });
    for (let n = keep; n >= 1; n--) {
      const from = n === 1 ? path : `${path}.${n - 1}`;
      try {
        renameSync(from, `${path}.${n}`);
      } catch {
        // A gap in the series (fewer old files than `keep` so far) is fine.
      }
    }
    openFile();
  };
  try {
    openFile();
  } catch (err) {
    process.stderr.write(`Could not open the log file ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
  }

  const write = (level: Level, scope: string, message: string) => {
    const text = `${now().toISOString()} ${level} ${scope ? `[${scope}] ` : ''}${redact(message, known)}\n`;
    if (toStderr) process.stderr.write(text);
    if (fd === null) return;
    const bytes = Buffer.from(text);
    try {
      if (size > 0 && size + bytes.length > maxBytes) rotate();
      if (fd === null) return;
      writeSync(fd, bytes);
      size += bytes.length;
    } catch (err) {
      // A full disk must not take the app down with it; stderr still has the line.
      if (toStderr) process.stderr.write(`(log file write failed: ${err instanceof Error ? err.message : String(err)})\n`);
    }
  };

  const make = (scope: string): Logger => {
    const info = (message: string) => write('INFO', scope, message);
    return {
      path,
      info,
      warn: (message) => write('WARN', scope, message),
      error: (message) => write('ERROR', scope, message),
      scope: (name) => make(scope ? `${scope}/${name}` : name),
      line: info,
      addSecret: (secret) => {
        if (secrets.has(secret)) return;
        secrets.add(secret);
        known = new SecretScrubber(secrets, LOG_MASK);
      },
      close: () => {
        if (fd !== null) closeSync(fd);
        fd = null;
      },
    };
  };
  return make('');
}

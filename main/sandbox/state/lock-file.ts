/**
 * One sandbox per state folder: two would each restore the snapshots, then overwrite each other's
 * (files, deferred completions, the clock). The first takes `<dir>/lock`, a file holding its pid
 * and when it took it; a second refuses to start, naming that pid. A lock left by a process that
 * is gone (killed, crashed, or from before the machine restarted, when its pid may be reused) is
 * taken over, so a crash never keeps the app's built-in sandbox from starting.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { uptime } from 'node:os';
import { join } from 'node:path';

/** The lock file of the state folder `dir`. */
export function lockFile(dir: string): string {
  return join(dir, 'lock');
}

/** A held lock; release() removes it (only while it is still this one's). */
export interface StateLock {
  release(): void;
}

interface Holder {
  pid: number;
  /** Unix ms when it was taken. */
  at: number;
}

function readHolder(path: string): Holder | null {
  try {
    const [pid, at] = readFileSync(path, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isSafeInteger(pid) && pid > 0 && Number.isFinite(at) ? { pid, at } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a process with this pid runs (EPERM: it does, as another user's). A killed process that
 * nobody has reaped yet (a zombie: Linux's /proc says `Z`) still answers signal 0, yet it holds
 * nothing: an app killed with its process group and started again at once met its own corpse.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

function zombie(pid: number): boolean {
  try {
    // `pid (comm) state …`: comm may hold spaces or parentheses, so the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS, Windows), or gone since
  }
}

/** True when the holder still runs: its pid is alive and it took the lock since this machine started. */
function holderRuns(holder: Holder): boolean {
  const bootMs = Date.now() - uptime() * 1000;
  return holder.at >= bootMs - 60_000 && alive(holder.pid);
}

function create(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Takes the lock of `dir` (which exists) or throws an Error saying who holds it and what to do. */
export function lockStateFolder(dir: string, log: (line: string) => void = () => undefined): StateLock {
  const path = lockFile(dir);
  const content = `${process.pid} ${Date.now()}\n`;
  if (!create(path, content)) {
    const holder = readHolder(path);
    if (holder && holderRuns(holder)) {
      throw new Error(
        `Another sandbox (process ${holder.pid}) is using the state folder ${dir}: two would overwrite each other's state. ` +
          `Stop that one first, or give this one another state folder (--state-dir). If no sandbox runs, remove ${path}.`,
      );
    }
    log(`sandbox state: taking over ${path}, left by ${holder ? `process ${holder.pid}, which is no longer running` : 'a process that did not finish writing it'}`);
    unlinkQuietly(path);
    // Another sandbox starting at the same moment may have taken it between the two calls.
    if (!create(path, content)) {
      const winner = readHolder(path);
      throw new Error(`Another sandbox${winner ? ` (process ${winner.pid})` : ''} took the state folder ${dir} at the same moment; stop it first, or give this one another state folder (--state-dir).`);
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Not ours any more (removed by hand and taken by another): leave it.
      try {
        if (readFileSync(path, 'utf8') === content) unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

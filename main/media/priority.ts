/**
 * The media process asks the OS to run it ahead of ordinary work. A call's microphone frame is
 * due every 20 ms; on a busy machine (a build, a browser, the app's own main process) a process
 * at normal priority waits its turn for the CPU, and each wait is a late frame (the send jitter).
 * Audio daemons do the same (PulseAudio asks for nice -11).
 *
 * Best effort, never required: raising a priority above normal needs a privilege on Linux and
 * macOS (CAP_SYS_NICE, root, or on Linux an RLIMIT_NICE allowance such as limits.conf's
 * `@audio - nice -11`); Windows lets a user take ABOVE_NORMAL for their own process. Refused, the
 * process runs at normal priority and says so once. On Linux a nice value belongs to a thread, so
 * every thread running now is raised (/proc/self/task: V8's helpers, libuv's pool if started);
 * threads started later inherit it from the thread that starts them.
 *
 * A process that runs hot for seconds gives the real-time policy back (watchRealtime).
 *
 * `chrt` runs asynchronously (execFile): a synchronous spawn held the process's start (and, in
 * watchRealtime, a running call's loop) for the child's whole run, up to its 2 s timeout.
 *
 * `WORKBENCH_MEDIA_PRIORITY=normal` leaves it alone (benchmarks measure both).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants, getPriority, platform, setPriority } from 'node:os';

export const MEDIA_PRIORITY_ENV = 'WORKBENCH_MEDIA_PRIORITY';
/** PulseAudio's choice on Linux; Windows maps it to ABOVE_NORMAL's class (its HIGH class starves the desktop). */
export const MEDIA_NICE = platform() === 'win32' ? constants.priority.PRIORITY_ABOVE_NORMAL : -11;

export interface MediaPriority {
  /** The priority asked for, or null when left alone. */
  wanted: number | null;
  /** The main thread's priority now (nice on POSIX). */
  now: number;
  /** Threads raised (Linux counts them; elsewhere the process is one unit: 1). */
  threads: number;
  /** Why it was not raised, or null. */
  refused: string | null;
  /** Linux: the real-time policy taken (`SCHED_RR 5`), or why not. */
  realtime: { policy: string | null; refused: string | null };
}

/** Runs `chrt` with these arguments; rejects with the child's error (stderr attached when any). */
export type ChrtRunner = (args: string[]) => Promise<void>;

/** util-linux's chrt, off the event loop (its exit comes back as a callback). */
export const runChrt: ChrtRunner = (args) =>
  new Promise((resolve, reject) => {
    execFile('chrt', args, { timeout: 2000, encoding: 'utf8' }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      reject(Object.assign(error, { stderr: String(stderr ?? '') }));
    });
  });

let applied: MediaPriority | null = null;

/** What the last raiseMediaPriority() did, once known (null before, and while chrt is still answering). */
export function mediaPriority(): MediaPriority | null {
  return applied;
}

/**
 * Raises the nice value at once (one syscall per thread) and asks for the real-time policy
 * without waiting; resolves with the whole report once chrt has answered (mediaPriority() from then on).
 */
export async function raiseMediaPriority(env: Record<string, string | undefined>, nice = MEDIA_NICE, chrt: ChrtRunner = runChrt): Promise<MediaPriority> {
  applied = null;
  if (env[MEDIA_PRIORITY_ENV] === 'normal') return (applied = { wanted: null, now: safeGet(), threads: 0, refused: null, realtime: { policy: null, refused: 'not asked' } });
  let threads = 0;
  let refused: string | null = null;
  const ids = platform() === 'linux' ? linuxThreads() : [0];
  for (const id of ids) {
    try {
      setPriority(id, nice);
      threads++;
    } catch (error) {
      // A thread that just ended (ESRCH) is no refusal; EACCES/EPERM is.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') continue;
      refused = `${code ?? 'error'}: ${(error as Error).message}`;
      break;
    }
  }
  const now = safeGet();
  const realtime = platform() === 'linux' ? await realtimePolicy(chrt) : { policy: null, refused: 'not Linux' };
  return (applied = { wanted: nice, now, threads, refused, realtime });
}

/**
 * Linux: a nice value is not enough on a loaded machine (measured here: a bare 20 ms timer at nice
 * -11 in its own autogroup still came 12-19 ms late at p99 at load 10; under SCHED_RR 1.5 ms), so
 * the process also asks for the round-robin real-time policy at a low priority, as PipeWire's
 * data thread does (it asks rtkit; Node has no sched_setscheduler, so util-linux's `chrt` asks).
 * All threads, so libuv's pool threads (naudiodon's blocking reads and writes) inherit it. The
 * kernel keeps 5% of each second for ordinary tasks (sched_rt_runtime_us), so a runaway loop here
 * cannot freeze the machine. Needs CAP_SYS_NICE or RLIMIT_RTPRIO (limits.conf: `@audio - rtprio 95`);
 * without either, or without chrt, nothing changes.
 */
const RT_PRIORITY = 5;
async function realtimePolicy(chrt: ChrtRunner): Promise<MediaPriority['realtime']> {
  try {
    await chrt(['--all-tasks', '--rr', '--pid', String(RT_PRIORITY), String(process.pid)]);
    return { policy: `SCHED_RR ${RT_PRIORITY}`, refused: null };
  } catch (error) {
    return { policy: null, refused: chrtRefusal(error) };
  }
}

function chrtRefusal(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { stderr?: string };
  return e.code === 'ENOENT' ? 'chrt is not installed' : (e.stderr?.trim() || e.message).slice(0, 300);
}

/** A process this busy (share of one core) for this many seconds in a row gives the real-time policy back. */
const RUNAWAY_SHARE = 0.6;
const RUNAWAY_SECONDS = 3;

/**
 * The real-time policy's safety valve. A call costs this process ~15% of one core; one running
 * far hotter for seconds is a bug or a device that does not pace (ALSA's `null` in tests: the
 * process then ran at 130-160%), and at a real-time priority it would starve the rest of the
 * machine (the app's own main process missed keep-alives for 10 s). Then the policy goes back to
 * normal for good (the nice value stays) and `log` says so once. Returns a stop function.
 */
export function watchRealtime(log: (line: string) => void, everyMs = 1000, chrt: ChrtRunner = runChrt): () => void {
  if (!applied?.realtime.policy) return () => undefined;
  let last = process.cpuUsage();
  let hot = 0;
  const timer = setInterval(() => {
    const used = process.cpuUsage(last);
    last = process.cpuUsage();
    hot = (used.user + used.system) / 1000 / everyMs > RUNAWAY_SHARE ? hot + 1 : 0;
    if (hot < RUNAWAY_SECONDS) return;
    clearInterval(timer);
    const said = (outcome: string) => log(`[media] this process used over ${RUNAWAY_SHARE * 100}% of a core for ${RUNAWAY_SECONDS} s at a real-time priority: ${outcome}, so it cannot starve the machine.`);
    chrt(['--all-tasks', '--other', '--pid', '0', String(process.pid)]).then(
      () => {
        if (applied) applied.realtime = { policy: null, refused: `given back: over ${RUNAWAY_SHARE * 100}% of a core for ${RUNAWAY_SECONDS} s` };
        said('back to normal scheduling');
      },
      (error: unknown) => said(`could not give it back (${chrtRefusal(error)})`),
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** The line the media process logs about it, once. */
export function describePriority(p: MediaPriority): string {
  if (p.wanted === null) return `[media] priority left at ${p.now} (${MEDIA_PRIORITY_ENV}=normal)`;
  const rt = p.realtime.policy ? `, real-time ${p.realtime.policy}` : `; real-time policy not taken (${p.realtime.refused})`;
  if (p.refused === null) return `[media] priority raised to ${p.now} (${p.threads} thread(s))${rt}`;
  return `[media] runs at normal priority (${p.now}): raising it to ${p.wanted} was refused (${p.refused}). Audio may stutter when the machine is busy; on Linux, allow it with CAP_SYS_NICE or an RLIMIT_NICE allowance (limits.conf: "@audio - nice ${p.wanted}").`;
}

function linuxThreads(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [0];
  }
}

function safeGet(): number {
  try {
    return getPriority();
  } catch {
    return 0;
  }
}

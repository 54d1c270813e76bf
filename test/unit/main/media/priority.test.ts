// The media process's priority (main/media/priority.ts), in a child process of its own (raising
// the test runner itself would outrank everything else on the machine). What the child reports
// is checked against what the kernel says of it: its nice value and, on Linux, each thread's
// scheduling policy (/proc/<pid>/task/<tid>/stat field 41: 0 normal, 2 SCHED_RR).
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getPriority } from 'node:os';
import { describePriority, mediaPriority, raiseMediaPriority, watchRealtime, type ChrtRunner, type MediaPriority } from '../../../../main/media/priority';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Runs raiseMediaPriority in a fresh Node process; its report and the kernel's view of its threads. */
function child(env: Record<string, string>, spinMs = 0): { report: MediaPriority; nice: number; policies: number[]; logs: string[] } {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { getPriority } from 'node:os';
    const { raiseMediaPriority, watchRealtime, mediaPriority } = await import(${JSON.stringify(resolve(ROOT, 'main/media/priority.ts'))});
    await raiseMediaPriority(process.env);
    const logs = [];
    // A runaway: busy for ${spinMs} ms in 50 ms slices (the watch's timer runs between them).
    const stop = watchRealtime((line) => logs.push(line), 200);
    const until = performance.now() + ${spinMs};
    while (performance.now() < until) {
      const slice = performance.now() + 50;
      while (performance.now() < slice);
      await new Promise((r) => setImmediate(r));
    }
    stop();
    // chrt's give-back answers asynchronously: wait for its line (or a bound).
    for (let i = 0; i < 100 && ${spinMs} > 0 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const report = mediaPriority();
    let policies = [];
    try {
      policies = readdirSync('/proc/self/task').map((t) => Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[38]));
    } catch {}
    process.stdout.write(JSON.stringify({ report, nice: getPriority(), policies, logs }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out);
}

describe('media process priority', () => {
  it('raises every thread, or says why not, and the kernel agrees', () => {
    const { report, nice, policies } = child({});
    expect(report.wanted).toBe(-11);
    expect(report.now).toBe(nice);
    if (report.refused === null) {
      // Allowed (root or CAP_SYS_NICE here): the nice value took, on every thread counted.
      expect(nice).toBe(-11);
      expect(report.threads).toBeGreaterThan(0);
    } else {
      expect(nice).toBe(0);
      expect(describePriority(report)).toMatch(/runs at normal priority .*CAP_SYS_NICE/);
    }
    if (process.platform === 'linux' && policies.length > 0) {
      if (report.realtime.policy) {
        expect(report.realtime.policy).toBe('SCHED_RR 5');
        expect(policies.every((p) => p === 2)).toBe(true);
      } else {
        expect(report.realtime.refused).toBeTruthy();
        expect(policies.every((p) => p === 0)).toBe(true);
      }
    }
  });

  it('gives the real-time policy back when the process runs hot for seconds (a runaway must not starve the machine)', () => {
    const { report, policies, logs } = child({}, 1500);
    if (process.platform !== 'linux' || policies.length === 0) return;
    // Whether or not the policy could be taken, none is left after a runaway.
    expect(policies.every((p) => p === 0)).toBe(true);
    expect(report.realtime.policy).toBeNull();
    const quiet = child({}, 0);
    if (!quiet.report.realtime.policy) return; // never taken here: nothing to give back
    // Idle, it keeps what it was given; hot, it gave it back and said so.
    expect(quiet.policies.every((p) => p === 2)).toBe(true);
    expect(report.realtime.refused).toMatch(/given back/);
    expect(logs).toEqual([expect.stringMatching(/real-time priority: back to normal scheduling/)]);
  });

  it('leaves the process alone with WORKBENCH_MEDIA_PRIORITY=normal', () => {
    const { report, nice, policies } = child({ WORKBENCH_MEDIA_PRIORITY: 'normal' });
    expect(report.wanted).toBeNull();
    expect(nice).toBe(0);
    expect(policies.every((p) => p === 0)).toBe(true);
    expect(describePriority(report)).toContain('WORKBENCH_MEDIA_PRIORITY=normal');
  });
});

/** A chrt that answers when the test says so, recording what it was asked. */
function fakeChrt(): { run: ChrtRunner; calls: string[][]; answer: (error?: Error & { code?: string; stderr?: string }) => void } {
  const calls: string[][] = [];
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  return {
    calls,
    run: (args) => {
      calls.push(args);
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    answer: (error) => {
      const p = pending.shift()!;
      if (error) p.reject(error);
      else p.resolve();
    },
  };
}

describe.runIf(process.platform === 'linux')('media process priority: chrt off the start path (injected runner)', () => {
  // nice = the runner's own value: setPriority then changes nothing in the test process.
  const same = () => getPriority();

  it('returns at once and reports the real-time policy only once chrt has answered', async () => {
    const chrt = fakeChrt();
    let settled = false;
    const raised = raiseMediaPriority({}, same(), chrt.run).then((p) => ((settled = true), p));
    await new Promise((r) => setImmediate(r));
    // chrt asked, not answered: the caller was not held, and nothing is reported yet.
    expect(chrt.calls).toEqual([['--all-tasks', '--rr', '--pid', '5', String(process.pid)]]);
    expect(settled).toBe(false);
    expect(mediaPriority()).toBeNull();
    chrt.answer();
    const report = await raised;
    expect(report.realtime).toEqual({ policy: 'SCHED_RR 5', refused: null });
    expect(mediaPriority()).toBe(report);
  });

  it('says why the policy was not taken: chrt missing, or its own words', async () => {
    const missing = fakeChrt();
    const a = raiseMediaPriority({}, same(), missing.run);
    missing.answer(Object.assign(new Error('spawn chrt ENOENT'), { code: 'ENOENT' }));
    expect((await a).realtime).toEqual({ policy: null, refused: 'chrt is not installed' });
    const denied = fakeChrt();
    const b = raiseMediaPriority({}, same(), denied.run);
    denied.answer(Object.assign(new Error('Command failed'), { stderr: 'chrt: failed to set pid 1 policy: Operation not permitted\n' }));
    expect((await b).realtime).toEqual({ policy: null, refused: 'chrt: failed to set pid 1 policy: Operation not permitted' });
    expect(describePriority(await b)).toContain('real-time policy not taken (chrt: failed to set pid 1 policy: Operation not permitted)');
  });

  it('a runaway gives the policy back through the runner, and says so once it has', async () => {
    const chrt = fakeChrt();
    const raised = raiseMediaPriority({}, same(), chrt.run);
    chrt.answer();
    await raised;
    const logs: string[] = [];
    const stop = watchRealtime((line) => logs.push(line), 50, chrt.run);
    // Busy in 20 ms slices until the watch asks chrt (bounded: 200 slices).
    for (let i = 0; i < 200 && chrt.calls.length < 2; i++) {
      const until = performance.now() + 20;
      while (performance.now() < until);
      await new Promise((r) => setImmediate(r));
    }
    stop();
    expect(chrt.calls[1]).toEqual(['--all-tasks', '--other', '--pid', '0', String(process.pid)]);
    // Asked, not yet answered: still reported as taken, nothing logged.
    expect(mediaPriority()!.realtime.policy).toBe('SCHED_RR 5');
    expect(logs).toEqual([]);
    chrt.answer();
    await new Promise((r) => setImmediate(r));
    expect(mediaPriority()!.realtime).toEqual({ policy: null, refused: 'given back: over 60% of a core for 3 s' });
    expect(logs).toEqual([expect.stringMatching(/real-time priority: back to normal scheduling/)]);
  });
});

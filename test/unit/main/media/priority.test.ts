// The media process's priority (main/media/priority.ts), in a child process of its own (raising
// the test runner itself would outrank everything else on the machine). What the child reports
// is checked against what the kernel says of it: its nice value and, on Linux, each thread's
// scheduling policy (/proc/<pid>/task/<tid>/stat field 41: 0 normal, 2 SCHED_RR).
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describePriority, type MediaPriority } from '../../../../main/media/priority';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Runs raiseMediaPriority in a fresh Node process; its report and the kernel's view of its threads. */
function child(env: Record<string, string>, spinMs = 0): { report: MediaPriority; nice: number; policies: number[]; logs: string[] } {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { getPriority } from 'node:os';
    const { raiseMediaPriority, watchRealtime, mediaPriority } = await import(${JSON.stringify(resolve(ROOT, 'main/media/priority.ts'))});
    raiseMediaPriority(process.env);
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

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
function child(env: Record<string, string>): { report: MediaPriority; nice: number; policies: number[] } {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { getPriority } from 'node:os';
    const { raiseMediaPriority } = await import(${JSON.stringify(resolve(ROOT, 'main/media/priority.ts'))});
    const report = raiseMediaPriority(process.env);
    let policies = [];
    try {
      policies = readdirSync('/proc/self/task').map((t) => Number(readFileSync('/proc/self/task/' + t + '/stat', 'utf8').split(') ')[1].split(' ')[38]));
    } catch {}
    process.stdout.write(JSON.stringify({ report, nice: getPriority(), policies }));
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

  it('leaves the process alone with WORKBENCH_MEDIA_PRIORITY=normal', () => {
    const { report, nice, policies } = child({ WORKBENCH_MEDIA_PRIORITY: 'normal' });
    expect(report.wanted).toBeNull();
    expect(nice).toBe(0);
    expect(policies.every((p) => p === 0)).toBe(true);
    expect(describePriority(report)).toContain('WORKBENCH_MEDIA_PRIORITY=normal');
  });
});

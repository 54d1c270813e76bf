import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateSandboxKey, startSandbox, type SandboxServer } from '../../../../../main/sandbox';

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const posix = process.platform !== 'win32';

describe('sandbox state folder: owner-only modes, one sandbox at a time', () => {
  let root: string;
  let dir: string;
  const open: SandboxServer[] = [];
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sb-state-'));
    dir = join(root, 'sandbox');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
    rmSync(root, { recursive: true, force: true });
  });

  it.runIf(posix)('makes the key, the compaction secret and the port 0600 (the folder 0700) when they existed before as 0644', async () => {
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    for (const [name, text] of [['key', 'sk-sandbox-old'], ['compaction-secret', 'ab'.repeat(32)], ['port', '0']]) {
      writeFileSync(join(dir, name), `${text}\n`);
      chmodSync(join(dir, name), 0o644);
    }
    // As the app does: the key first, then the sandbox on the same folder.
    expect(loadOrCreateSandboxKey(dir)).toBe('sk-sandbox-old');
    expect(modeOf(join(dir, 'key'))).toBe(0o600);
    chmodSync(join(dir, 'key'), 0o644);
    open.push(await startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined }));
    expect(modeOf(dir)).toBe(0o700);
    for (const name of ['key', 'compaction-secret', 'port']) expect([name, modeOf(join(dir, name))]).toEqual([name, 0o600]);
  });

  it('refuses a second sandbox on the same state folder, naming the process that holds it', async () => {
    const first = await startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined });
    open.push(first);
    await expect(startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined })).rejects.toThrow(
      new RegExp(`Another sandbox \\(process ${process.pid}\\) is using the state folder .*--state-dir`),
    );
    // The refused one left the holder's lock alone: after the first closes, a new one starts.
    await first.close();
    open.push(await startSandbox({ stateDir: dir, keys: ['sk-a'], log: () => undefined }));
  });

  it('takes over a lock left by a process that is no longer running', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => child.on('exit', () => resolve(child.pid as number)));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'lock'), `${deadPid} ${Date.now()}\n`);
    const lines: string[] = [];
    open.push(await startSandbox({ stateDir: dir, keys: ['sk-a'], log: (l) => lines.push(l) }));
    expect(lines.join('\n')).toContain(`left by process ${deadPid}, which is no longer running`);
    expect(readFileSync(join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    await open.pop()?.close();
    expect(() => statSync(join(dir, 'lock'))).toThrow();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose process was killed but not yet reaped (a zombie, as after kill -9 of the app and an immediate start)', async () => {
    // The forked child exits at once, and its parent never waits for it: a zombie. (Perl, not `sh`:
    // dash may reap a finished background job before it execs, which left no zombie in a CI run.)
    const parent = spawn('perl', ['-e', '$| = 1; my $pid = fork(); if ($pid == 0) { exit 0 } print "$pid\\n"; sleep 30']);
    try {
      const zombiePid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
      await expect.poll(() => readFileSync(`/proc/${zombiePid}/stat`, 'utf8').split(') ')[1]?.[0]).toBe('Z');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'lock'), `${zombiePid} ${Date.now()}\n`);
      const lines: string[] = [];
      open.push(await startSandbox({ stateDir: dir, keys: ['sk-a'], log: (l) => lines.push(l) }));
      expect(lines.join('\n')).toContain(`left by process ${zombiePid}, which is no longer running`);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

// The browser-mode entry as a user runs it: one line on stdout with the address and token, a
// server that answers with that token, a private log file without the token, and a clean exit 0
// on SIGTERM (database closed).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStartArgs, shellCommand } from '../../../scripts/start.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'wb-entry-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function health(port: number, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', headers: { Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A port that was free a moment ago (the kernel's ephemeral ports are all above 1024). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Status of an unauthenticated GET on a loopback port. */
function statusOf(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('main/browser entry', () => {
  it('prints one address line, serves with its token, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/browser/index.ts', '--port', '0', '--data-dir', dataDir], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { ...process.env, WORKBENCH_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('\n')) resolve(stdout.split('\n')[0]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address:\n${stderr}`)));
    });
    const match = /^Workbench: http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9_-]{43})$/.exec(firstLine);
    expect(match, firstLine).not.toBeNull();
    expect(await health(Number(match![1]), match![2])).toBe(200);

    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(stdout).toBe(`${firstLine}\n`);
    expect(existsSync(join(dataDir, 'workbench.db'))).toBe(true);
    // A cleanly closed WAL database folds its log back in and removes it.
    expect(existsSync(join(dataDir, 'workbench.db-wal'))).toBe(false);
    const logFile = join(dataDir, 'logs', 'workbench.log');
    const logged = readFileSync(logFile, 'utf8');
    expect(logged).toContain(`log file: ${logFile}`);
    expect(logged).toContain('SIGTERM: shutting down');
    expect(logged).not.toContain(match![2]);
    expect(statSync(logFile).mode & 0o777).toBe(0o600);
  });

  it('puts the built-in sandbox on the port given as `npm start -- --browser --sandbox-port N`', async () => {
    const sandboxPort = await freePort();
    const ownData = mkdtempSync(join(tmpdir(), 'wb-entry-port-'));
    // start.mjs's own parsing and command, with the entry's source run through tsx instead of the build.
    const args = parseStartArgs(['--browser', '--sandbox-port', String(sandboxPort), '--data-dir', ownData]);
    const [, [, ...flags]] = shellCommand({ shell: 'browser', binary: null, args });
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/browser/index.ts', ...flags], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { ...process.env, WORKBENCH_DATA_DIR: '', WORKBENCH_SANDBOX_PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => d.toString().includes('Workbench: ') && resolve());
        child.on('exit', (code) => reject(new Error(`exited ${code} before printing its address:\n${stderr}`)));
      });
      expect(stderr).toContain(`sandbox listening on http://127.0.0.1:${sandboxPort}`);
      // The sandbox itself answers there: a request without its key is refused with 401.
      expect(await statusOf(sandboxPort, '/v1/models')).toBe(401);
    } finally {
      const exit = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exit;
      rmSync(ownData, { recursive: true, force: true });
    }
  });
});

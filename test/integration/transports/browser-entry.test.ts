// The browser-mode entry as a user runs it: one line on stdout with the address and token, a
// server that answers with that token, a private log file without the token, and a clean exit 0
// on SIGTERM (database closed).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../../main/sandbox/cli';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

describe('sandbox/cli', () => {
  describe('parseArgs()', () => {
    it('reads port, host, repeated keys and delays', () => {
      expect(parseArgs(['--port', '8080', '--key', 'a', '--key=b', '--token-delay', '0', '--deferred-delay=10', '--host', '::1'])).toEqual({
        options: { port: 8080, keys: ['a', 'b'], tokenDelayMs: 0, deferredDelayMs: 10, host: '::1' },
        quiet: false,
      });
      expect(parseArgs([])).toEqual({ options: {}, quiet: false });
      expect(parseArgs(['--files-dir', '/tmp/x', '--max-file-bytes=1000'])).toEqual({ options: { filesDir: '/tmp/x', maxFileBytes: 1000 }, quiet: false });
      expect(parseArgs(['--state-dir', '/tmp/s'])).toEqual({ options: { stateDir: '/tmp/s' }, quiet: false });
      expect(() => parseArgs(['--state-dir', '/tmp/s', '--files-dir', '/tmp/x'])).toThrow(/--state-dir keeps files in DIR\/files/);
    });

    it('refuses unknown flags and bad numbers with the usage line', () => {
      expect(() => parseArgs(['--prot', '1'])).toThrow(/unknown argument "--prot"\nusage: npm run sandbox/);
      expect(() => parseArgs(['--port', 'x'])).toThrow(/--port needs a non-negative integer/);
      expect(() => parseArgs(['--key'])).toThrow(/--key needs a value/);
    });
  });

  describe('npm run sandbox', () => {
    it('says on stderr where the control API is', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'main/sandbox/cli.ts', '--port', '0', '--key', 'sk-cli-ctl'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let err = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          err += d.toString();
          if (err.includes('control API')) resolve();
        });
        child.on('exit', () => reject(new Error(`cli exited early: ${err}`)));
      });
      expect(err).toMatch(/control API \(same keys\): POST http:\/\/127\.0\.0\.1:\d+\/sandbox\/clock\/advance \{"seconds": N\}/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });

    it('prints the base URL and the keys, serves, and exits cleanly on SIGTERM', async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'main/sandbox/cli.ts', '--port', '0', '--key', 'sk-cli-one', '--key', 'sk-cli-two', '--quiet'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.split('\n').length >= 4) resolve();
        });
        child.on('exit', () => reject(new Error(`cli exited early: ${out}`)));
      });
      const [url, ...keys] = out.trim().split('\n');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(keys).toEqual(['sk-cli-one', 'sk-cli-two']);
      const res = await fetch(`${url}/v1/models/svc-4`, { headers: { authorization: 'Bearer sk-cli-two' } });
      expect(res.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    });
    it('refuses a second sandbox on the same --state-dir with a clear message, no stack trace', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-cli-lock-'));
      const run = () =>
        spawn(process.execPath, ['--import', 'tsx', 'main/sandbox/cli.ts', '--port', '0', '--key', 'sk-cli-lock', '--state-dir', dir], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const first = run();
      try {
        const firstExit = new Promise<number | null>((resolve) => first.on('exit', (code) => resolve(code)));
        await new Promise<void>((resolve, reject) => {
          first.stdout.on('data', () => resolve());
          first.on('exit', () => reject(new Error('the first sandbox exited early')));
        });
        const second = run();
        let err = '';
        second.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const code = await new Promise<number | null>((resolve) => second.on('exit', (c) => resolve(c)));
        expect(code).toBe(1);
        expect(err).toContain(`[sandbox] could not start: Another sandbox (process ${first.pid}) is using the state folder ${dir}`);
        expect(err).not.toMatch(/\n\s+at /);
        first.kill('SIGTERM');
        expect(await firstExit).toBe(0);
      } finally {
        first.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

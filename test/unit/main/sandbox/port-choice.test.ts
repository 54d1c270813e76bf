import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseSandboxPort, DEFAULT_SANDBOX_PORT, validPort } from '../../../../main/sandbox/port-choice';

describe('sandbox/port-choice', () => {
  let dir: string;
  let lines: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-choice-'));
    lines = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const choose = (over: Partial<Parameters<typeof chooseSandboxPort>[0]> = {}) => chooseSandboxPort({ stateDir: dir, log: (l) => lines.push(l), ...over });

  describe('chooseSandboxPort()', () => {
    it('takes 4010 on a first launch, then the last launch\'s port', () => {
      expect(choose()).toEqual({ port: DEFAULT_SANDBOX_PORT, source: 'default' });
      writeFileSync(join(dir, 'port'), '41234\n');
      expect(choose()).toEqual({ port: 41234, source: 'last' });
    });

    it('prefers the command line, then the environment, then the Connections setting, then the last port', () => {
      writeFileSync(join(dir, 'port'), '41234\n');
      expect(choose({ cli: 5001, env: '5002', setting: 5003 })).toEqual({ port: 5001, source: 'cli' });
      expect(choose({ env: '5002', setting: 5003 })).toEqual({ port: 5002, source: 'env' });
      expect(choose({ setting: 5003 })).toEqual({ port: 5003, source: 'setting' });
    });

    it('says so and ignores an environment value that is not a usable port, and a damaged setting', () => {
      expect(choose({ env: 'abc', setting: 'x' })).toEqual({ port: DEFAULT_SANDBOX_PORT, source: 'default' });
      expect(lines).toEqual(['WORKBENCH_SANDBOX_PORT="abc" is not a port from 1024 to 65535; ignored']);
      expect(choose({ env: '  ' })).toEqual({ port: DEFAULT_SANDBOX_PORT, source: 'default' });
    });
  });

  describe('validPort()', () => {
    it('accepts ports from 1024 to 65535, as numbers or digits', () => {
      expect([validPort(4010), validPort('4010'), validPort(1024), validPort(65535)]).toEqual([4010, 4010, 1024, 65535]);
      expect([validPort(80), validPort(65536), validPort(40.5), validPort('4e3'), validPort(null), validPort('')]).toEqual([null, null, null, null, null, null]);
    });
  });
});

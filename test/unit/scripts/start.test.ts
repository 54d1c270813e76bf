import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideShell, electronBinary, parseStartArgs, shellCommand } from '../../../scripts/start.mjs';

describe('start', () => {
  describe('parseStartArgs()', () => {
    it('passes --port, --data-dir and --open through to browser mode, and only --data-dir to Electron', () => {
      expect(parseStartArgs(['--browser', '--port', '8080', '--data-dir=/tmp/wb', '--open'])).toEqual({
        browser: true,
        passthrough: ['--port', '8080', '--data-dir', '/tmp/wb', '--open'],
        electronPassthrough: ['--data-dir', '/tmp/wb'],
      });
    });

    it('passes --sandbox-port (both spellings) to either shell, as the README documents', () => {
      expect(parseStartArgs(['--sandbox-port', '4011'])).toEqual({
        browser: false,
        passthrough: ['--sandbox-port', '4011'],
        electronPassthrough: ['--sandbox-port', '4011'],
      });
      expect(parseStartArgs(['--sandbox-port=65535', '--port=0']).passthrough).toEqual(['--sandbox-port', '65535', '--port', '0']);
    });

    it.each([['80'], ['70000'], ['4o10'], ['-1']])('refuses --sandbox-port %s as browser mode does', (value) => {
      expect(() => parseStartArgs(['--sandbox-port', value])).toThrow('--sandbox-port must be a whole number from 1024 to 65535');
    });

    it('refuses unknown flags and missing values with a usage hint', () => {
      expect(() => parseStartArgs(['--verbose'])).toThrow(/usage: npm start -- .*--sandbox-port N/);
      expect(() => parseStartArgs(['--port'])).toThrow(/--port needs a value/);
      expect(() => parseStartArgs(['--sandbox-port'])).toThrow(/--sandbox-port needs a value/);
    });
  });

  describe('shellCommand()', () => {
    const args = parseStartArgs(['--port', '8080', '--data-dir', '/tmp/wb', '--sandbox-port', '4020', '--open']);

    it('runs browser mode\'s built entry with every flag', () => {
      expect(shellCommand({ shell: 'browser', binary: null, args, execPath: '/node', appRoot: '/app' })).toEqual([
        '/node',
        [join('/app', 'out', 'main', 'browser.js'), '--port', '8080', '--data-dir', '/tmp/wb', '--sandbox-port', '4020', '--open'],
      ]);
    });

    it('runs Electron on the app folder with the flags it reads (--data-dir, --sandbox-port)', () => {
      expect(shellCommand({ shell: 'electron', binary: '/e', args, appRoot: '/app' })).toEqual(['/e', ['/app', '--data-dir', '/tmp/wb', '--sandbox-port', '4020']]);
    });
  });

  describe('electronBinary()', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'wb-electron-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('is null when the binary was never downloaded (and starts no download)', () => {
      expect(electronBinary(dir, {})).toBeNull();
      writeFileSync(join(dir, 'path.txt'), 'electron');
      expect(electronBinary(dir, {})).toBeNull();
    });

    it('gives the binary path once it is there', () => {
      writeFileSync(join(dir, 'path.txt'), 'electron');
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'electron'), '');
      expect(electronBinary(dir, {})).toBe(join(dir, 'dist', 'electron'));
    });
  });

  describe('decideShell()', () => {
    const display = { DISPLAY: ':0' };
    it('runs Electron when the binary and a display are there', () => {
      expect(decideShell({ browserFlag: false, binary: '/e', platform: 'linux', env: display })).toEqual({ shell: 'electron', reason: null });
      expect(decideShell({ browserFlag: false, binary: '/e', platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } }).shell).toBe('electron');
      expect(decideShell({ browserFlag: false, binary: '/e', platform: 'darwin', env: {} }).shell).toBe('electron');
    });

    it('falls back to browser mode with a one-line reason', () => {
      const noBinary = decideShell({ browserFlag: false, binary: null, platform: 'linux', env: display });
      expect(noBinary).toEqual({ shell: 'browser', reason: 'Electron is not available here (binary not downloaded); starting browser mode.' });
      const noDisplay = decideShell({ browserFlag: false, binary: '/e', platform: 'linux', env: {} });
      expect(noDisplay.shell).toBe('browser');
      expect(noDisplay.reason).toMatch(/No display/);
    });

    it('honours --browser silently', () => {
      expect(decideShell({ browserFlag: true, binary: '/e', platform: 'linux', env: display })).toEqual({ shell: 'browser', reason: null });
    });
  });
});

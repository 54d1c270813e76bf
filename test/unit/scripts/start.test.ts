import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideShell, electronBinary, parseStartArgs } from '../../../scripts/start.mjs';

describe('start', () => {
  describe('parseStartArgs()', () => {
    it('passes --port, --data-dir and --open through to browser mode, and only --data-dir to Electron', () => {
      expect(parseStartArgs(['--browser', '--port', '8080', '--data-dir=/tmp/wb', '--open'])).toEqual({
        browser: true,
        passthrough: ['--port', '8080', '--data-dir', '/tmp/wb', '--open'],
        electronPassthrough: ['--data-dir', '/tmp/wb'],
      });
    });

    it('refuses unknown flags and missing values with a usage hint', () => {
      expect(() => parseStartArgs(['--verbose'])).toThrow(/usage: npm start/);
      expect(() => parseStartArgs(['--port'])).toThrow(/--port needs a value/);
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

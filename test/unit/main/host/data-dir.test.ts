import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../../../main/host/data-dir';

describe('data-dir', () => {
  describe('resolveDataDir()', () => {
    it('prefers the flag, then WORKBENCH_DATA_DIR', () => {
      expect(resolveDataDir('/flag', { WORKBENCH_DATA_DIR: '/env' }, 'linux', '/home/u')).toBe('/flag');
      expect(resolveDataDir(undefined, { WORKBENCH_DATA_DIR: '/env' }, 'linux', '/home/u')).toBe('/env');
    });

    it('follows each OS convention', () => {
      expect(resolveDataDir(undefined, {}, 'linux', '/home/u')).toBe(join('/home/u', '.local', 'share', 'inference-workbench'));
      expect(resolveDataDir(undefined, { XDG_DATA_HOME: '/xdg' }, 'linux', '/home/u')).toBe(join('/xdg', 'inference-workbench'));
      expect(resolveDataDir(undefined, {}, 'darwin', '/Users/u')).toBe(join('/Users/u', 'Library', 'Application Support', 'inference-workbench'));
      expect(resolveDataDir(undefined, { APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32', 'C:/Users/u')).toBe(
        join('C:/Users/u/AppData/Roaming', 'inference-workbench'),
      );
    });
  });
});

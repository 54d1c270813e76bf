import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStale } from '../../../scripts/build.mjs';

let root: string;
const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wb-build-'));
  for (const dir of ['renderer/src', 'main', 'preload', 'shared', 'out']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'renderer/src/main.ts'), '');
  writeFileSync(join(root, 'main/app.ts'), '');
  writeFileSync(join(root, 'vite.config.ts'), '');
  for (const path of ['renderer/src/main.ts', 'renderer/src', 'renderer', 'main/app.ts', 'main', 'preload', 'shared', 'vite.config.ts']) at(path, 1000);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('build', () => {
  describe('isStale()', () => {
    it('is stale when nothing was built yet', () => {
      expect(isStale(root)).toBe(true);
    });

    it('is fresh when the stamp is newer than every source and config', () => {
      writeFileSync(join(root, 'out/.build-stamp'), '');
      at('out/.build-stamp', 2000);
      expect(isStale(root)).toBe(false);
    });

    it('is stale when a nested source file or a config changed after the stamp', () => {
      writeFileSync(join(root, 'out/.build-stamp'), '');
      at('out/.build-stamp', 2000);
      at('renderer/src/main.ts', 3000);
      expect(isStale(root)).toBe(true);
      at('renderer/src/main.ts', 1000);
      at('vite.config.ts', 3000);
      expect(isStale(root)).toBe(true);
    });
  });
});

import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { createFileKeyStore } from '../../../../main/store/key-file';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('key-file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-keys-'));
    path = join(dir, 'config', 'keys.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('createFileKeyStore()', () => {
    it('reports the file backend and starts empty when there is no file', () => {
      const store = createFileKeyStore(path);
      expect(store.backend).toBe('file');
      expect(store.get('work')).toBeNull();
    });

    it('keeps keys across restarts', () => {
      createFileKeyStore(path).set('work', 'sk-work-123');
      const reopened = createFileKeyStore(path);
      expect(reopened.get('work')).toBe('sk-work-123');
      expect(reopened.get('other')).toBeNull();
    });

    it('creates the file readable only by the user, in a folder only the user can enter', () => {
      createFileKeyStore(path).set('work', 'sk-work-123');
      expect(mode(path)).toBe(0o600);
      expect(mode(join(dir, 'config'))).toBe(0o700);
    });

    it('tightens a key file found with looser permissions to 0600', () => {
      mkdirSync(join(dir, 'config'));
      writeFileSync(path, JSON.stringify({ version: 1, keys: { work: 'sk-old' } }));
      chmodSync(path, 0o644);
      const store = createFileKeyStore(path);
      expect(mode(path)).toBe(0o600);
      expect(store.get('work')).toBe('sk-old');
    });

    it('refuses an unreadable file with a config error that does not leak its contents', () => {
      mkdirSync(join(dir, 'config'));
      writeFileSync(path, '{"version":1,"keys":{"work":"sk-secret"');
      let failure: unknown;
      try {
        createFileKeyStore(path);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(WorkbenchFailure);
      expect((failure as WorkbenchFailure).error.code).toBe('config');
      expect((failure as WorkbenchFailure).message).toContain(path);
      expect((failure as WorkbenchFailure).message).not.toContain('sk-secret');
    });
  });

  describe('set()', () => {
    it('replaces the file by renaming a new one over it, still 0600, leaving no temp files', () => {
      const store = createFileKeyStore(path);
      store.set('work', 'sk-1');
      const before = statSync(path).ino;
      store.set('home', 'sk-2');
      expect(statSync(path).ino).not.toBe(before);
      expect(mode(path)).toBe(0o600);
      expect(readdirSync(join(dir, 'config'))).toEqual(['keys.json']);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, keys: { work: 'sk-1', home: 'sk-2' } });
    });

    it('cleans up its temp file and throws when the new file cannot be put in place', () => {
      const store = createFileKeyStore(path);
      // A non-empty folder where the file should go makes the final rename fail.
      mkdirSync(join(path, 'blocker'), { recursive: true });
      expect(() => store.set('work', 'sk-1')).toThrow();
      expect(readdirSync(join(dir, 'config'))).toEqual(['keys.json']);
    });
  });

  describe('delete()', () => {
    it('forgets the key, on disk too', () => {
      const store = createFileKeyStore(path);
      store.set('work', 'sk-1');
      store.set('home', 'sk-2');
      store.delete('work');
      store.delete('never-set');
      expect(store.get('work')).toBeNull();
      expect(createFileKeyStore(path).get('work')).toBeNull();
      expect(createFileKeyStore(path).get('home')).toBe('sk-2');
    });
  });
});

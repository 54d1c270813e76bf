import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase } from '../../../../main/store/db';
import { insertRun } from '../../../../main/store/runs';
import { securePrivateDir } from '../../../../main/store/private-dir';
import { newRun } from './run-fixtures';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe.runIf(process.platform !== 'win32')('private data folder', () => {
  let root: string;
  let previousUmask: number;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'private-dir-'));
    // The widest umask a user is likely to have: files would otherwise be created 0644/0755.
    previousUmask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(previousUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it('tightens a folder that already existed 0755 with 0644 files and 0755 subfolders', () => {
    const dir = join(root, 'data');
    mkdirSync(join(dir, 'blobs'), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'keys.json'), '{}', { mode: 0o644 });
    writeFileSync(join(dir, 'odd'), '', { mode: 0o604 });
    writeFileSync(join(root, 'elsewhere'), '', { mode: 0o644 });
    symlinkSync(join(root, 'elsewhere'), join(dir, 'link'));
    securePrivateDir(dir);
    expect({
      dir: modeOf(dir),
      file: modeOf(join(dir, 'keys.json')),
      odd: modeOf(join(dir, 'odd')),
      sub: modeOf(join(dir, 'blobs')),
      // A link's target is not the folder's to change.
      target: modeOf(join(root, 'elsewhere')),
    }).toEqual({ dir: 0o700, file: 0o600, odd: 0o600, sub: 0o700, target: 0o644 });
  });

  it('only removes bits: a 0400 file stays 0400', () => {
    const dir = join(root, 'data');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ro'), '', { mode: 0o400 });
    securePrivateDir(dir);
    expect(modeOf(join(dir, 'ro'))).toBe(0o400);
  });

  it('creates the database and its -wal and -shm files 0600 under a 022 umask', () => {
    const path = join(root, 'data', 'workbench.db');
    const db = openDatabase(path);
    insertRun(db, newRun('r1', 1000, 'private'));
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    expect(modeOf(join(root, 'data'))).toBe(0o700);
    closeDatabase(db);
  });

  it('tightens a database and its WAL left 0644 by an older build when it opens them', () => {
    const path = join(root, 'workbench.db');
    const first = openDatabase(path);
    insertRun(first, newRun('r1', 1000, 'private'));
    // Left open on purpose: the WAL exists while the next open happens, as after a crash.
    for (const p of [path, `${path}-wal`, `${path}-shm`]) chmodSync(p, 0o644);
    const second = openDatabase(path);
    expect([modeOf(path), modeOf(`${path}-wal`), modeOf(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    closeDatabase(second);
    closeDatabase(first);
  });
});

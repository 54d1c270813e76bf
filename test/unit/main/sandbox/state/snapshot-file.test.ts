import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, SnapshotFile, writeSnapshot } from '../../../../../main/sandbox/state/snapshot-file';
import { loadOrCreateSandboxKey } from '../../../../../main/sandbox/state/key-file';

describe('sandbox state snapshots', () => {
  let dir: string;
  const logs: string[] = [];
  const log = (line: string): void => void logs.push(line);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-snap-'));
    logs.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const read = (path: string): unknown => {
    let got: unknown = 'nothing';
    readSnapshot(path, 'things', (data) => (got = data), log);
    return got;
  };

  it('round-trips data and leaves no temp file', () => {
    const path = join(dir, 'things.json');
    writeSnapshot(path, { a: [1, 2], b: 'x' });
    expect(read(path)).toEqual({ a: [1, 2], b: 'x' });
    expect(readdirSync(dir)).toEqual(['things.json']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('a crash between writing and renaming leaves the old snapshot, and the temp file is cleared at the next read', () => {
    const path = join(dir, 'things.json');
    writeSnapshot(path, { gen: 1 });
    expect(() =>
      writeSnapshot(path, { gen: 2 }, {
        beforeRename: () => {
          throw new Error('crash');
        },
      }),
    ).toThrow('crash');
    expect(existsSync(`${path}.tmp`)).toBe(true);
    expect(read(path)).toEqual({ gen: 1 });
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(logs).toEqual([]);
  });

  it.each([
    ['cut short', '{"v":1,"savedAt":1,"data":{"a":'],
    ['not JSON', 'garbage'],
    ['another version', '{"v":2,"savedAt":1,"data":{}}'],
  ])('moves a damaged snapshot (%s) aside with a log line', (_what, text) => {
    const path = join(dir, 'things.json');
    writeFileSync(path, text);
    expect(read(path)).toBe('nothing');
    expect(existsSync(path)).toBe(false);
    const aside = readdirSync(dir).filter((n) => n.startsWith('things.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(text);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/the things snapshot could not be read .*moved aside to .*things\.json\.damaged-\d+, starting with no things/);
  });

  it('moves aside a snapshot its store refuses', () => {
    const path = join(dir, 'things.json');
    writeSnapshot(path, { wrong: true });
    const ok = readSnapshot(path, 'things', () => {
      throw new Error('records is not a list');
    }, log);
    expect(ok).toBe(false);
    expect(logs[0]).toContain('records is not a list');
    expect(existsSync(path)).toBe(false);
  });

  it('debounces saves: a burst of changes is one write, within the debounce time; flush writes at once', async () => {
    const path = join(dir, 'things.json');
    let serialized = 0;
    let value = 0;
    const file = new SnapshotFile(path, 'things', () => (serialized++, { value }), log, 50);
    for (value = 1; value <= 5; value++) file.touch();
    expect(existsSync(path)).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect(serialized).toBe(1);
    expect(read(path)).toEqual({ value: 6 });
    value = 7;
    file.touch();
    file.flush();
    expect(read(path)).toEqual({ value: 7 });
    file.flush();
    expect(serialized).toBe(2);
  });

  it('writes a change marked soon at the next turn of the event loop, not after the debounce', async () => {
    const path = join(dir, 'things.json');
    let value = 1;
    const file = new SnapshotFile(path, 'things', () => ({ value }), log, 60_000);
    file.touch();
    file.touch(true);
    value = 2;
    expect(existsSync(path)).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(read(path)).toEqual({ value: 2 });
  });

  it('keeps the sandbox key: made once (0600 in a 0700 folder), then the same on every load', () => {
    const keyDir = join(dir, 'sandbox');
    const key = loadOrCreateSandboxKey(keyDir);
    expect(key).toMatch(/^sk-sandbox-[0-9a-f]+$/);
    expect(loadOrCreateSandboxKey(keyDir)).toBe(key);
    expect(statSync(join(keyDir, 'key')).mode & 0o777).toBe(0o600);
    expect(statSync(keyDir).mode & 0o777).toBe(0o700);
    writeFileSync(join(keyDir, 'key'), '');
    expect(loadOrCreateSandboxKey(keyDir, log)).not.toBe(key);
    expect(logs[0]).toContain('was not usable');
  });
});

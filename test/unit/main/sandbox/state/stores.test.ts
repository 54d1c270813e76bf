import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClock } from '../../../../../main/sandbox/clock';
import { DeferredStore } from '../../../../../main/sandbox/deferred';
import { FileStore } from '../../../../../main/sandbox/files/store';
import { ResponseStore } from '../../../../../main/sandbox/responses/store';
import { openSandboxState } from '../../../../../main/sandbox/state/persistence';
import type { ResponseObject } from '../../../../../shared/wire/responses';

/** What a snapshot becomes after a trip through a file. */
const viaDisk = (data: unknown): unknown => JSON.parse(JSON.stringify(data));
const DAY = 86_400_000;

describe('sandbox stores round-trip through their snapshots', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-stores-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('deferred: pending and done completions, and Idempotency-Keys within 24 hours only', () => {
    const a = new DeferredStore();
    const pending = a.add('t', 1000, 5000, { answer: 'later' });
    const done = a.add('t', 1000, 2000, { answer: 'now' });
    a.rememberKey('t', 'old-key', '{}', done, 0);
    a.rememberKey('t', 'new-key', '{"x":1}', pending, DAY);
    const b = new DeferredStore();
    b.restore(viaDisk(a.snapshot(DAY + 1)));
    expect(b.get(pending, 't', 3000)).toEqual({ state: 'pending' });
    expect(b.get(pending, 't', 5000)).toEqual({ state: 'done', result: { answer: 'later' } });
    expect(b.get(done, 't', 3000)).toEqual({ state: 'done', result: { answer: 'now' } });
    expect(b.get(done, 'other', 3000)).toEqual({ state: 'unknown' });
    expect(b.lookupKey('t', 'new-key', '{"x":1}', DAY + 1)).toEqual({ found: 'same', id: pending });
    expect(b.lookupKey('t', 'new-key', '{"x":2}', DAY + 1)).toEqual({ found: 'conflict' });
    expect(b.lookupKey('t', 'old-key', '{}', 1)).toEqual({ found: 'none' });
  });

  it('responses: live ones with their conversation; expired and deleted ones are dropped', () => {
    const a = new ResponseStore();
    const put = (id: string, createdMs: number) =>
      a.put({ team: 't', response: { id, object: 'response' } as ResponseObject, conversation: [{ role: 'user', content: id }], createdMs });
    put('resp_old', 0);
    put('resp_gone', 20 * DAY);
    put('resp_live', 25 * DAY);
    a.delete('resp_gone', 't', 25 * DAY);
    const snap = viaDisk(a.snapshot(31 * DAY)) as { entries: unknown[] };
    expect(snap.entries).toHaveLength(1);
    const b = new ResponseStore();
    b.restore(snap);
    const found = b.lookup('resp_live', 't', 31 * DAY);
    expect(found).toMatchObject({ state: 'found', entry: { conversation: [{ role: 'user', content: 'resp_live' }], createdMs: 25 * DAY } });
    expect(b.lookup('resp_old', 't', 31 * DAY)).toEqual({ state: 'unknown' });
    expect(() => b.restore({ entries: [{ team: 't', response: {}, conversation: [], createdMs: 1 }] })).toThrow('id is not a string');
  });

  it('files: records with public URLs and order; expired ones and ones whose bytes are gone are dropped', () => {
    const filesDir = join(dir, 'files');
    const a = new FileStore({ dir: filesDir, keepOnClose: true });
    a.removeStrays();
    const add = (id: string, bytes: string, expiresAt: number | null) => {
      writeFileSync(a.pathOf(id), bytes);
      return a.add({ id, team: 't', filename: `${id}.txt`, bytes: bytes.length, createdMs: 1000, expiresAt, contentType: 'text/plain', purpose: 'assistants', userDefinedId: id === 'file_a' ? 'mine' : null });
    };
    const fa = add('file_a', 'alpha', null);
    add('file_b', 'beta', 10);
    add('file_c', 'gamma', null);
    const token = a.publish(fa, null);
    const snap = viaDisk(a.snapshot(20_000));
    a.close();
    expect(existsSync(a.pathOf('file_a'))).toBe(true);
    rmSync(a.pathOf('file_c'));
    writeFileSync(join(filesDir, 'file_x.part'), 'cut short');

    const logs: string[] = [];
    const b = new FileStore({ dir: filesDir, keepOnClose: true });
    b.restore(snap, (l) => logs.push(l));
    b.removeStrays();
    expect(b.live('t', 20_000).map((r) => [r.id, r.seq, r.userDefinedId])).toEqual([['file_a', 0, 'mine']]);
    expect(b.byPublicToken(token, 20_000)?.id).toBe('file_a');
    expect(logs).toEqual([expect.stringContaining('bytes of file_c (file_c.txt) are missing')]);
    expect(readdirSync(filesDir)).toEqual(['file_a']);
    writeFileSync(b.pathOf('file_d'), 'd');
    expect(b.add({ id: 'file_d', team: 't', filename: 'd', bytes: 1, createdMs: 2000, expiresAt: null, contentType: 'text/plain', purpose: '', userDefinedId: null }).seq).toBe(3);
  });

  it('a sandbox state folder: changes are saved within the debounce, restored on open, and a damaged store starts empty alone', async () => {
    const logs: string[] = [];
    const open = () => {
      const clock = createClock(() => 1_000_000);
      const stores = { clock, deferred: new DeferredStore(), responses: new ResponseStore(), files: new FileStore({ dir: join(dir, 'files'), keepOnClose: true }) };
      const state = openSandboxState({ dir, ...stores, log: (l) => logs.push(l), debounceMs: 20 });
      return { ...stores, state };
    };
    const first = open();
    first.clock.advance(60_000);
    const id = first.deferred.add('t', first.clock.now(), first.clock.now() + 10, { ok: true });
    // A deferred create is written at once (the client holds its id); the rest within the debounce.
    await new Promise((r) => setImmediate(r));
    expect(readdirSync(dir).sort()).toEqual(['deferred.json', 'files']);
    await new Promise((r) => setTimeout(r, 80));
    expect(readdirSync(dir).sort()).toEqual(['clock.json', 'deferred.json', 'files']);
    first.responses.put({ team: 't', response: { id: 'resp_1' } as ResponseObject, conversation: [], createdMs: first.clock.now() });
    first.state.close();
    first.responses.put({ team: 't', response: { id: 'resp_after_close' } as ResponseObject, conversation: [], createdMs: 0 });

    writeFileSync(join(dir, 'deferred.json'), '{"v":1,"data":{"entries":"no"}}');
    const second = open();
    expect(second.clock.now()).toBe(1_060_000);
    expect(second.responses.lookup('resp_1', 't', 1_060_000).state).toBe('found');
    expect(second.responses.lookup('resp_after_close', 't', 1_060_000).state).toBe('unknown');
    expect(second.deferred.get(id, 't', 2_000_000)).toEqual({ state: 'unknown' });
    expect(logs).toEqual([expect.stringMatching(/deferred completions snapshot could not be read \(entries is not a list\); moved aside/)]);
    second.state.close();
  });
});

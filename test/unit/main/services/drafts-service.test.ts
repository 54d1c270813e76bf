import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { DraftsService } from '../../../../main/services/drafts-service';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { DRAFT_MAX_BYTES, DRAFT_MAX_KEYS, draftsContract, type DraftChange } from '../../../../shared/contract/drafts';

const chatForm = { model: 'svc-3', systemPrompt: 'Be brief', messages: [{ role: 'user', content: 'Where do herons nest?' }], params: { temperature: 0.4 } };

describe('DraftsService', () => {
  let db: Db;
  let changes: DraftChange[];
  let clock: number;
  const make = (maxBytes?: number) => new DraftsService({ db, emitChanged: (c) => changes.push(c), now: () => clock, maxBytes });

  beforeEach(() => {
    db = openDatabase(':memory:');
    changes = [];
    clock = 1_000;
  });
  afterEach(() => closeDatabase(db));

  describe('put() and get()', () => {
    it('keeps the form whole, bumps the revision on every write and announces each with its writer', () => {
      const drafts = make();
      expect(drafts.get('chat')).toEqual({ key: 'chat', revision: 0, state: null, updatedAt: 0 });
      expect(drafts.put('chat', chatForm, 'page-a')).toEqual({ revision: 1, updatedAt: 1_000 });
      clock = 2_000;
      const edited = { ...chatForm, params: { temperature: 0.9, headers: { 'x-team': 'blue' } } };
      expect(drafts.put('chat', edited, 'page-b')).toEqual({ revision: 2, updatedAt: 2_000 });
      expect(drafts.get('chat')).toEqual({ key: 'chat', revision: 2, state: edited, updatedAt: 2_000 });
      expect(drafts.get('messages').revision).toBe(0);
      expect(changes).toEqual([
        { key: 'chat', revision: 1, writer: 'page-a', cleared: false },
        { key: 'chat', revision: 2, writer: 'page-b', cleared: false },
      ]);
    });

    it('refuses a draft over the size bound with its size, keeping the one before', () => {
      const drafts = make(1_000);
      drafts.put('chat', chatForm, 'page-a');
      const big = { ...chatForm, messages: [{ role: 'user', content: 'x'.repeat(2_000) }] };
      let thrown: unknown;
      try {
        drafts.put('chat', big, 'page-a');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WorkbenchFailure);
      expect((thrown as WorkbenchFailure).error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^This form \(2\.\d KiB\) is larger than the 1000 bytes a draft can keep, so it will not survive a reload/) });
      expect(drafts.get('chat')).toMatchObject({ revision: 1, state: chatForm });
      expect(changes).toHaveLength(1);
    });

    it('counts the bound in UTF-8 bytes, at 2 MB by default', () => {
      const drafts = make();
      // 800,000 three-byte characters: 2.3 MB of UTF-8 in 800,000 UTF-16 units.
      expect(() => drafts.put('chat', { text: '€'.repeat(800_000) }, 'p')).toThrow(/^This form \(2\.3 MiB\) is larger than the 2 MiB a draft can keep/);
      // Just over: sizes in bytes, since both would round to 2 MB.
      expect(() => drafts.put('chat', { text: '€'.repeat(700_000) }, 'p')).toThrow(/^This form \(2,100,011 bytes\) is larger than the 2,097,152 bytes/);
      expect(drafts.put('chat', { text: 'x'.repeat(DRAFT_MAX_BYTES - 20) }, 'p').revision).toBe(1);
    });

    it('refuses a new key past the key limit, but still updates existing ones', () => {
      const drafts = make();
      for (let i = 0; i < DRAFT_MAX_KEYS; i++) drafts.put(`view-${i}`, { i }, 'p');
      expect(() => drafts.put('one-more', { i: -1 }, 'p')).toThrow(/at most 64 forms/);
      expect(drafts.put('view-3', { i: 33 }, 'p').revision).toBe(2);
    });
  });

  describe('clear()', () => {
    it('empties the draft with a higher revision and answers what it held, so Undo can put it back', () => {
      const drafts = make();
      drafts.put('chat', chatForm, 'page-a');
      expect(drafts.clear('chat', 'page-a')).toEqual({ revision: 2, previous: chatForm });
      expect(drafts.get('chat')).toMatchObject({ revision: 2, state: null });
      expect(drafts.list()).toEqual([]);
      // Undo: the page puts the previous form back, under a newer revision still.
      expect(drafts.put('chat', chatForm, 'page-a').revision).toBe(3);
      expect(drafts.list()).toEqual([{ key: 'chat', revision: 3, state: chatForm, updatedAt: 1_000 }]);
      expect(changes.map((c) => [c.revision, c.cleared])).toEqual([[1, false], [2, true], [3, false]]);
    });

    it('does nothing for a key that never had a draft', () => {
      expect(make().clear('compare', 'p')).toEqual({ revision: 0, previous: null });
      expect(changes).toEqual([]);
    });
  });

  describe('list()', () => {
    it('lists the drafts holding a form, by key, and skips one whose JSON no longer parses', () => {
      const lines: string[] = [];
      const drafts = new DraftsService({ db, emitChanged: () => undefined, log: (l) => lines.push(l), now: () => 5 });
      drafts.put('messages', { turns: [] }, 'p');
      drafts.put('chat', chatForm, 'p');
      drafts.put('legacy', { tab: 'complete' }, 'p');
      db.prepare("UPDATE drafts SET state_json = '{broken' WHERE key = 'legacy'").run();
      expect(drafts.list().map((d) => d.key)).toEqual(['chat', 'messages']);
      expect(lines).toEqual([expect.stringContaining('"legacy" (revision 1) is not valid JSON')]);
    });

    it('survives closing and reopening the database (a restart)', () => {
      const dir = `${process.env.TMPDIR ?? '/tmp'}/wb-drafts-${process.pid}-${Date.now()}`;
      const path = `${dir}/workbench.db`;
      const first = openDatabase(path);
      new DraftsService({ db: first, emitChanged: () => undefined }).put('compare', { user: 'Name three owls' }, 'p');
      closeDatabase(first);
      const second = openDatabase(path);
      try {
        expect(new DraftsService({ db: second, emitChanged: () => undefined }).get('compare')).toMatchObject({ revision: 1, state: { user: 'Name three owls' } });
      } finally {
        closeDatabase(second);
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('the contract', () => {
    it('refuses keys that are not names, a missing state and unknown fields', () => {
      expect(draftsContract.put.input.safeParse({ key: 'chat', state: chatForm, writer: 'w' }).success).toBe(true);
      expect(draftsContract.put.input.safeParse({ key: 'Chat/../x', state: {}, writer: 'w' }).success).toBe(false);
      expect(draftsContract.put.input.safeParse({ key: 'chat', writer: 'w' }).success).toBe(false);
      expect(draftsContract.put.input.safeParse({ key: 'chat', state: null, writer: 'w' }).success).toBe(false);
      expect(draftsContract.put.input.safeParse({ key: 'chat', state: {}, writer: 'w', extra: 1 }).success).toBe(false);
      expect(draftsContract.clear.input.safeParse({ key: 'chat', writer: '' }).success).toBe(false);
    });
  });
});

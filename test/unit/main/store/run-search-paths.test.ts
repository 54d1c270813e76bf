/**
 * searchRuns answers a full-text query by sorting few matches or by scanning history in order
 * for many; both must return exactly what a brute-force search would, page after page, even
 * when runs were recorded out of time order.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistorySearchInput } from '../../../../shared/contract/history';
import type { RunStatus } from '../../../../shared/contract/runs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { insertRun, searchRuns, updateRun } from '../../../../main/store/runs';
import { newRun } from './run-fixtures';

interface Seeded {
  id: string;
  createdAt: number;
  model: string;
  status: RunStatus;
  words: Set<string>;
}

const COUNT = 1_400;
const MODELS = ['grok-4', 'grok-3-mini', 'grok-code'];
const STATUSES: RunStatus[] = ['completed', 'error', 'cancelled'];

function allPages(db: Db, input: HistorySearchInput): string[] {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = searchRuns(db, { ...input, cursor });
    ids.push(...page.items.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('run-search', () => {
  let db: Db;
  const seeded: Seeded[] = [];

  beforeAll(() => {
    db = openDatabase(':memory:');
    let state = 7;
    const random = (): number => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    db.transaction(() => {
      for (let i = 0; i < COUNT; i++) {
        // Timestamps are shuffled against insertion order and collide often.
        const createdAt = 10_000 + Math.floor(random() * 400);
        const words = ['common'];
        if (random() < 0.8) words.push('frequent');
        if (random() < 0.3) words.push('occasional');
        if (random() < 0.1) words.push('frequently');
        if (i % 97 === 0) words.push('rare');
        const model = MODELS[i % MODELS.length];
        const status = STATUSES[Math.floor(random() * STATUSES.length)];
        const id = `r${i.toString().padStart(4, '0')}`;
        const [inPrompt, inOutput] = random() < 0.5 ? [words, ['filler']] : [['filler'], words];
        insertRun(db, newRun(id, createdAt, inPrompt.join(' '), { model }));
        updateRun(db, id, { status, outputText: inOutput.join(' ') });
        seeded.push({ id, createdAt, model, status, words: new Set(words) });
      }
    })();
  });
  afterAll(() => closeDatabase(db));

  function expected(words: string[], model?: string, status?: RunStatus, prefix?: string): string[] {
    const hasPrefix = (r: Seeded): boolean => !prefix || [...r.words, 'filler'].some((w) => w.startsWith(prefix));
    return seeded
      .filter((r) => words.every((w) => r.words.has(w)) && hasPrefix(r) && (!model || r.model === model) && (!status || r.status === status))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
  }

  describe('searchRuns()', () => {
    it('pages through dense and sparse matches exactly like a brute-force search', () => {
      fc.assert(
        fc.property(
          fc.subarray(['common', 'frequent', 'occasional', 'rare'], { minLength: 1 }),
          fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
          fc.option(fc.constantFrom(...STATUSES), { nil: undefined }),
          fc.integer({ min: 1, max: 200 }),
          (words, model, status, limit) => {
            const got = allPages(db, { query: `${words.join(' ')} `, model, status, limit });
            expect(got).toEqual(expected(words, model, status));
          },
        ),
        { numRuns: 25 },
      );
    });

    it('pages through prefix matches (the typed last word) exactly like a brute-force search', () => {
      fc.assert(
        fc.property(
          fc.subarray(['common', 'occasional', 'rare'], { minLength: 0 }),
          fc.constantFrom('fre', 'freq', 'frequently', 'occ', 'rar', 'com', 'fil', 'zzz'),
          fc.option(fc.constantFrom(...MODELS), { nil: undefined }),
          fc.integer({ min: 1, max: 200 }),
          (words, prefix, model, limit) => {
            const query = [...words, prefix].join(' ');
            expect(allPages(db, { query, model, limit })).toEqual(expected(words, model, undefined, prefix));
          },
        ),
        { numRuns: 25 },
      );
    });

    it('finds a word used in over a thousand runs but not all, newest first', () => {
      const page = searchRuns(db, { query: 'frequent ', limit: 50 });
      expect(page.items.map((r) => r.id)).toEqual(expected(['frequent']).slice(0, 50));
      expect(page.nextCursor).not.toBeNull();
    });
  });
});

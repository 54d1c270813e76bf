import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunStatus } from '../../../../shared/contract/runs';
import { WorkbenchFailure } from '../../../../shared/contract/errors';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';
import { insertRun, runModels, searchRuns, updateRun } from '../../../../main/store/runs';
import { completion, newRun } from './run-fixtures';

/** A snippet written out with its matches in [brackets]. */
function marked(parts: ReadonlyArray<{ text: string; match?: true }> | undefined): string {
  return (parts ?? []).map((p) => (p.match ? `[${p.text}]` : p.text)).join('');
}

function ids(page: { items: { id: string }[] }): string[] {
  return page.items.map((r) => r.id);
}

describe('run-search', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => closeDatabase(db));

  function seed(): void {
    const rows: [string, number, string, string, string, RunStatus][] = [
      ['a', 1_000, 'How do penguins keep warm?', 'Penguins huddle together and have dense feathers.', 'grok-4', 'completed'],
      ['b', 2_000, 'Translate "bonjour" to English', 'Hello.', 'grok-3-mini', 'completed'],
      ['c', 3_000, 'Write a haiku about autumn', 'Crimson leaves falling', 'grok-4', 'error'],
      ['d', 4_000, 'Explain quantum entanglement simply', 'Two particles share one state.', 'grok-3-mini', 'cancelled'],
      ['e', 5_000, 'Naïve café résumé', 'Accents are folded for search.', 'grok-4', 'completed'],
    ];
    for (const [id, at, prompt, answer, model, status] of rows) {
      insertRun(db, newRun(id, at, prompt, { model }));
      updateRun(db, id, { status, output: completion(answer), outputText: answer });
    }
  }

  describe('searchRuns()', () => {
    it('lists every run newest first when there is no query or filter', () => {
      seed();
      expect(ids(searchRuns(db, {}))).toEqual(['e', 'd', 'c', 'b', 'a']);
    });

    it('finds runs by a word of the prompt', () => {
      seed();
      expect(ids(searchRuns(db, { query: 'haiku' }))).toEqual(['c']);
    });

    it('says why a row matched: a snippet of the prompt or output with each match marked', () => {
      seed();
      expect(searchRuns(db, { query: 'huddle' }).items[0]?.snippet).toEqual([
        { text: 'Penguins ' },
        { text: 'huddle', match: true },
        { text: ' together and have dense feathers.' },
      ]);
      // A typed prefix marks the whole word it stands for; accents are kept as written.
      expect(marked(searchRuns(db, { query: 'cafe' }).items[0]?.snippet)).toBe('You are terse.\nNaïve [café] résumé');
      expect(searchRuns(db, { query: 'entang' }).items[0]?.snippet?.filter((p) => p.match)).toEqual([{ text: 'entanglement', match: true }]);
      expect(searchRuns(db, {}).items[0]?.snippet).toBeUndefined();
    });

    it('marks text that itself looks like markup as plain text', () => {
      insertRun(db, newRun('x', 1_000, '<img src=x onerror=alert(1)> needle here'));
      expect(searchRuns(db, { query: 'needle' }).items[0]?.snippet?.slice(-3)).toEqual([{ text: 'You are terse.\n<img src=x onerror=alert(1)> ' }, { text: 'needle', match: true }, { text: ' here' }]);
    });

    it('finds runs by a word of the output', () => {
      seed();
      expect(ids(searchRuns(db, { query: 'huddle' }))).toEqual(['a']);
    });

    it('requires every word, in prompt or output', () => {
      seed();
      expect(ids(searchRuns(db, { query: 'penguins feathers' }))).toEqual(['a']);
      expect(ids(searchRuns(db, { query: 'penguins autumn' }))).toEqual([]);
    });

    it('matches the last word as a prefix, so results appear while typing', () => {
      seed();
      expect(ids(searchRuns(db, { query: 'quantum entang' }))).toEqual(['d']);
      expect(ids(searchRuns(db, { query: 'entang ' }))).toEqual([]);
    });

    it('matches a prefix standing for many different words', () => {
      for (let i = 0; i < 80; i++) insertRun(db, newRun(`p${i}`, 1_000 + i, `word pre${i}fix`));
      insertRun(db, newRun('other', 5_000, 'word prompt'));
      const page = searchRuns(db, { query: 'word pre', limit: 200 });
      expect(page.items).toHaveLength(80);
      expect(page.items.map((r) => r.id)).not.toContain('other');
    });

    it('is case and accent insensitive', () => {
      seed();
      expect(ids(searchRuns(db, { query: 'CAFE resume' }))).toEqual(['e']);
    });

    it('keeps a quoted phrase as a phrase', () => {
      seed();
      expect(ids(searchRuns(db, { query: '"crimson leaves"' }))).toEqual(['c']);
      expect(ids(searchRuns(db, { query: '"leaves crimson"' }))).toEqual([]);
    });

    it('searches FTS syntax characters literally', () => {
      insertRun(db, newRun('x', 1_000, 'what does NEAR(a b) mean in column:value syntax?'));
      expect(ids(searchRuns(db, { query: 'NEAR(a' }))).toEqual(['x']);
      expect(ids(searchRuns(db, { query: 'column:value' }))).toEqual(['x']);
      expect(ids(searchRuns(db, { query: 'NOT' }))).toEqual([]);
    });

    it('never throws on FTS-unsafe user input', () => {
      seed();
      const nasty = ['"', '""', '"unclosed', '*', 'a*b', ':', 'prompt_text:', '-', '-haiku', '()', '(haiku', 'haiku)', 'NEAR', 'NEAR(a b, 2)', 'AND', 'OR OR', 'NOT haiku', '^haiku', '+', '{prompt_text}:x', "it's", '\\', '\u0000', '   '];
      for (const query of nasty) expect(() => searchRuns(db, { query }), query).not.toThrow();
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom('"', '*', ':', '-', '(', ')', '^', '+', '{', '}', ' ', 'a', 'N', 'E', 'A', 'R', 'O', 'T', 'é', '漢') }), (query) => {
          searchRuns(db, { query });
        }),
        { numRuns: 300 },
      );
    });

    it('treats a query with nothing searchable as no query', () => {
      seed();
      expect(ids(searchRuns(db, { query: ' -- ** ' }))).toEqual(['e', 'd', 'c', 'b', 'a']);
    });

    it('filters by model, status and endpoint, alone and combined with a query', () => {
      seed();
      expect(ids(searchRuns(db, { model: 'grok-3-mini' }))).toEqual(['d', 'b']);
      expect(ids(searchRuns(db, { status: 'completed' }))).toEqual(['e', 'b', 'a']);
      expect(ids(searchRuns(db, { endpoint: 'chat.completions', status: 'error' }))).toEqual(['c']);
      expect(ids(searchRuns(db, { model: 'grok-4', status: 'completed' }))).toEqual(['e', 'a']);
      expect(ids(searchRuns(db, { model: 'grok-4', query: 'penguins' }))).toEqual(['a']);
      expect(ids(searchRuns(db, { model: 'grok-3-mini', query: 'penguins' }))).toEqual([]);
    });

    it('returns summaries with previews of the last user message and the answer', () => {
      insertRun(db, {
        ...newRun('r', 1_000, 'unused'),
        request: {
          method: 'POST',
          url: 'http://x/v1/chat/completions',
          headers: {},
          body: {
            messages: [
              { role: 'user', content: 'first question' },
              { role: 'assistant', content: 'first answer' },
              { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'image_url', image_url: { url: 'data:' } }, { type: 'text', text: 'question' }] },
            ],
          },
        },
      });
      updateRun(db, 'r', { status: 'completed', output: completion('x'.repeat(500)), outputText: 'x'.repeat(500), costTicks: 42 });
      const [summary] = searchRuns(db, {}).items;
      expect(summary.promptPreview).toBe('second question');
      expect(summary.outputPreview.length).toBeLessThanOrEqual(200);
      expect(summary.outputPreview.startsWith('xxxx')).toBe(true);
      expect(summary).toMatchObject({ id: 'r', status: 'completed', costTicks: 42, isSandbox: true });
      expect(summary).not.toHaveProperty('request');
    });

    it('pages through every run exactly once, newest first, including runs created at the same instant', () => {
      const expected: string[] = [];
      for (let i = 0; i < 47; i++) {
        const id = `run-${String(i).padStart(2, '0')}`;
        // Groups of three share a timestamp: the cursor must break ties by id.
        insertRun(db, newRun(id, 1_000 + Math.floor(i / 3), `prompt number ${i} about llamas`));
        expected.push(id);
      }
      expected.sort((x, y) => {
        const tx = 1_000 + Math.floor(Number(x.slice(4)) / 3);
        const ty = 1_000 + Math.floor(Number(y.slice(4)) / 3);
        return ty - tx || (x < y ? 1 : -1);
      });

      for (const query of [undefined, 'llamas']) {
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = searchRuns(db, { query, limit: 10, cursor });
          seen.push(...ids(page));
          cursor = page.nextCursor ?? undefined;
          pages++;
        } while (cursor);
        expect(seen).toEqual(expected);
        expect(pages).toBe(5);
      }
    });

    it('gives no next cursor when the page holds the last run', () => {
      seed();
      expect(searchRuns(db, { limit: 5 }).nextCursor).toBeNull();
      expect(searchRuns(db, { limit: 4 }).nextCursor).not.toBeNull();
    });

    it('keeps a cursor valid when newer runs arrive between pages', () => {
      seed();
      const first = searchRuns(db, { limit: 2 });
      insertRun(db, newRun('newest', 9_000, 'arrived later'));
      const second = searchRuns(db, { limit: 2, cursor: first.nextCursor ?? undefined });
      expect(ids(first)).toEqual(['e', 'd']);
      expect(ids(second)).toEqual(['c', 'b']);
    });

    it('refuses a cursor it did not make with an invalid_input error', () => {
      for (const cursor of ['garbage', 'W10', Buffer.from('[1,2]').toString('base64url')]) {
        let failure: unknown;
        try {
          searchRuns(db, { cursor });
        } catch (error) {
          failure = error;
        }
        expect(failure).toBeInstanceOf(WorkbenchFailure);
        expect((failure as WorkbenchFailure).error.code).toBe('invalid_input');
      }
    });
  });

  describe('runModels()', () => {
    it('lists each model once, sorted', () => {
      seed();
      expect(runModels(db)).toEqual(['grok-3-mini', 'grok-4']);
    });

    it('is empty for an empty history', () => {
      expect(runModels(db)).toEqual([]);
    });
  });
});

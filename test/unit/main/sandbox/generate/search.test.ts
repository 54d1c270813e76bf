import { describe, expect, it } from 'vitest';
import { citeSources, decideSearch, syntheticSources } from '../../../../../main/sandbox/generate/search';
import { Rng } from '../../../../../main/sandbox/generate/rng';

describe('sandbox/generate/search', () => {
  describe('decideSearch()', () => {
    it('is off without search options or tools, and for mode off', () => {
      expect(decideSearch({}, 'Latest news')).toBeNull();
      expect(decideSearch({ search_parameters: { mode: 'off' } }, 'Latest news')).toBeNull();
    });

    it('defaults to mode on with web and x sources, 20 results and citations', () => {
      expect(decideSearch({ search_parameters: {} }, 'Tides')).toEqual({ maxResults: 20, returnCitations: true, types: ['web', 'x'], viaTool: false });
    });

    it('maps search_context_size to a result count and treats search tools as server-side calls', () => {
      expect(decideSearch({ web_search_options: { search_context_size: 'high' } }, 'x')?.maxResults).toBe(10);
      expect(decideSearch({ tools: [{ type: 'function' }, { type: 'x_search' }] }, 'x')).toMatchObject({ types: ['x'], viaTool: true });
    });
  });

  describe('syntheticSources()', () => {
    it('makes clearly synthetic sources, never more than allowed, the same for the same seed', () => {
      const decision = { maxResults: 2, returnCitations: true, types: ['news' as const], viaTool: false };
      const a = syntheticSources('Tide tables for Lisbon', decision, new Rng(1));
      expect(a).toEqual([
        { type: 'news', url: 'https://sandbox.invalid/news/tide-tables-lisbon-1', title: 'Synthetic source 1: tide tables lisbon (news)' },
        { type: 'news', url: 'https://sandbox.invalid/news/tide-tables-lisbon-2', title: 'Synthetic source 2: tide tables lisbon (news)' },
      ]);
      expect(syntheticSources('Tide tables for Lisbon', decision, new Rng(1))).toEqual(a);
    });
  });

  describe('citeSources()', () => {
    it('appends links whose offsets the annotations point at', () => {
      const sources = [{ type: 'web' as const, url: 'https://sandbox.invalid/web/a-1', title: 'Synthetic source 1: a (web)' }];
      const { text, annotations } = citeSources('Answer.', sources);
      expect(text).toBe('Answer.\n\nSources (synthetic): [Synthetic source 1: a (web)](https://sandbox.invalid/web/a-1)');
      expect(annotations).toEqual([{ type: 'url_citation', url: sources[0].url, title: sources[0].title, start_index: 30, end_index: text.length }]);
    });
  });
});

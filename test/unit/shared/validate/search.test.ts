import { describe, expect, it } from 'vitest';
import { validateSearchParameters, validateWebSearchOptions } from '../../../../shared/validate/search';

describe('validate/search', () => {
  describe('validateSearchParameters()', () => {
    it('accepts every documented field and an empty sources list', () => {
      expect(
        validateSearchParameters({
          from_date: '2025-01-01',
          to_date: '2025-02-28',
          max_search_results: 50,
          mode: 'auto',
          return_citations: false,
          sources: [
            { type: 'web', country: 'US', excluded_websites: ['a.com'], safe_search: true },
            { type: 'x', included_x_handles: ['someone'], post_favorite_count: 10, post_view_count: 100 },
            { type: 'news', country: 'de' },
            { type: 'rss', links: ['https://example.com/feed.xml'] },
          ],
        }),
      ).toEqual([]);
      expect(validateSearchParameters({ sources: [], to_date: null })).toEqual([]);
      expect(validateSearchParameters(undefined)).toEqual([]);
    });

    it.each([
      [{ from_date: '01/02/2025' }, 'search_parameters.from_date must be a date written YYYY-MM-DD'],
      [{ to_date: '2025-02-30' }, 'search_parameters.to_date must be a date written YYYY-MM-DD'],
      [{ from_date: '2025-03-01', to_date: '2025-02-01' }, 'search_parameters.to_date (2025-02-01) is before from_date (2025-03-01); swap them'],
      [{ max_search_results: 0 }, 'search_parameters.max_search_results must be between 1 and 50'],
      [{ max_search_results: 51 }, 'search_parameters.max_search_results must be between 1 and 50'],
      [{ sources: [{ type: 'web' }, { type: 'x' }, { type: 'news' }, { type: 'web' }, { type: 'x' }] }, 'search_parameters.sources must have at most 4 entries (got 5)'],
      [{ sources: [{ type: 'web', country: 'USA' }] }, 'search_parameters.sources[0].country must be a two-letter country code, e.g. "US"'],
      [{ sources: [{ type: 'web', allowed_websites: ['a.com'], excluded_websites: ['b.com'] }] }, 'search_parameters.sources[0] cannot have both allowed_websites and excluded_websites; keep one'],
      [{ sources: [{ type: 'x', included_x_handles: ['a'], excluded_x_handles: ['b'] }] }, 'search_parameters.sources[0] cannot have both included_x_handles and excluded_x_handles; keep one'],
      [{ sources: [{ type: 'web', excluded_websites: Array.from({ length: 11 }, (_, i) => `s${i}.com`) }] }, 'search_parameters.sources[0].excluded_websites must have at most 10 entries (got 11)'],
      [{ sources: [{ type: 'rss', links: [] }] }, 'search_parameters.sources[0].links must hold exactly one RSS feed URL'],
    ])('reports a value error for %j', (sp, message) => {
      expect(validateSearchParameters(sp)).toEqual([expect.objectContaining({ message, kind: 'value' })]);
    });

    it.each([
      ['x', 'search_parameters must be an object'],
      [{ mode: 'always' }, 'search_parameters.mode must be one of "off", "on", "auto"'],
      [{ max_search_results: 2.5 }, 'search_parameters.max_search_results must be an integer'],
      [{ return_citations: 'yes' }, 'search_parameters.return_citations must be a boolean'],
      [{ from_date: 20250101 }, 'search_parameters.from_date must be a string'],
      [{ sources: { type: 'web' } }, 'search_parameters.sources must be an array of source objects'],
      [{ sources: ['web'] }, 'search_parameters.sources[0] must be an object with a type ("web", "x", "news" or "rss")'],
      [{ sources: [{}] }, 'search_parameters.sources[0].type is required: "web", "x", "news" or "rss"'],
      [{ sources: [{ type: 'tv' }] }, 'search_parameters.sources[0].type must be one of "web", "x", "news", "rss"'],
      [{ sources: [{ type: 'web', safe_search: 'on' }] }, 'search_parameters.sources[0].safe_search must be a boolean'],
      [{ sources: [{ type: 'web', allowed_websites: 'a.com' }] }, 'search_parameters.sources[0].allowed_websites must be an array of strings'],
      [{ sources: [{ type: 'x', post_view_count: 'many' }] }, 'search_parameters.sources[0].post_view_count must be an integer'],
    ])('reports a shape error for %j', (sp, message) => {
      expect(validateSearchParameters(sp)).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });
  });

  describe('validateWebSearchOptions()', () => {
    it('accepts the OpenAI-compatible fields', () => {
      expect(
        validateWebSearchOptions({
          search_context_size: 'high',
          filters: { allowed_domains: ['example.com'] },
          user_location: { type: 'approximate', approximate: { city: 'Lisbon', country: 'PT' } },
        }),
      ).toEqual([]);
      expect(validateWebSearchOptions({})).toEqual([]);
    });

    it.each([
      [[], 'web_search_options must be an object'],
      [{ search_context_size: 'huge' }, 'web_search_options.search_context_size must be one of "low", "medium", "high"'],
      [{ filters: 'none' }, 'web_search_options.filters must be an object {allowed_domains?, excluded_domains?}'],
      [{ filters: { excluded_domains: [1] } }, 'web_search_options.filters.excluded_domains must be an array of strings'],
      [{ user_location: 'Lisbon' }, 'web_search_options.user_location must be an object {type: "approximate", approximate: {...}}'],
      [{ user_location: { type: 'exact' } }, 'web_search_options.user_location.type must be one of "approximate"'],
      [{ user_location: { approximate: 'PT' } }, 'web_search_options.user_location.approximate must be an object'],
      [{ user_location: { approximate: { city: 5 } } }, 'web_search_options.user_location.approximate.city must be a string'],
    ])('reports a shape error for %j', (o, message) => {
      expect(validateWebSearchOptions(o)).toEqual([expect.objectContaining({ message, kind: 'shape' })]);
    });

    it('reports a value error for too many domains', () => {
      const domains = Array.from({ length: 11 }, (_, i) => `d${i}.com`);
      expect(validateWebSearchOptions({ filters: { allowed_domains: domains } })).toEqual([
        expect.objectContaining({ message: 'web_search_options.filters.allowed_domains must have at most 10 entries (got 11)', kind: 'value' }),
      ]);
    });
  });
});

/**
 * Wire shapes of live search on text generation: chat `search_parameters` / `web_search_options`
 * (spec "POST /v1/chat/completions"), the same `search_parameters` on responses, and the
 * citations that come back (chat `citations` URL strings; responses `url_citation` annotations,
 * wire-notes §1.3).
 */

/** Search modes: `on` is the spec's default when `search_parameters` is given. */
export const SEARCH_MODES = ['off', 'on', 'auto'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Kinds of source a search may draw on (default: web and the social platform `x`). */
export const SEARCH_SOURCE_TYPES = ['web', 'x', 'news', 'rss'] as const;
export type SearchSourceType = (typeof SEARCH_SOURCE_TYPES)[number];

/** One entry of `search_parameters.sources`; fields beyond `type` depend on the kind. */
export interface SearchSource {
  type: SearchSourceType;
  /** web/news: ISO alpha-2 country code. */
  country?: string;
  /** web/news. */
  excluded_websites?: string[];
  /** web. */
  allowed_websites?: string[];
  /** web/news. */
  safe_search?: boolean;
  /** x. */
  included_x_handles?: string[];
  /** x. */
  excluded_x_handles?: string[];
  /** x. */
  post_favorite_count?: number;
  /** x. */
  post_view_count?: number;
  /** rss: feed URLs. */
  links?: string[];
}

/** `search_parameters` on chat and responses. */
export interface SearchParameters {
  /** YYYY-MM-DD. */
  from_date?: string | null;
  /** YYYY-MM-DD. */
  to_date?: string | null;
  /** 1 to LIMITS-style `SEARCH_LIMITS.maxSearchResults.max`. */
  max_search_results?: number | null;
  mode?: SearchMode | null;
  return_citations?: boolean | null;
  sources?: SearchSource[] | null;
}

/** `web_search_options` on chat (OpenAI-compatible; `search_context_size` maps to the result count). */
export interface WebSearchOptions {
  search_context_size?: 'low' | 'medium' | 'high' | null;
  filters?: { allowed_domains?: string[] | null; excluded_domains?: string[] | null } | null;
  user_location?: {
    type?: 'approximate';
    approximate?: { city?: string; country?: string; region?: string; timezone?: string };
  } | null;
}

/** Bounds the sandbox applies to search (the spec gives none; documented in the sandbox README). */
export const SEARCH_LIMITS = {
  maxSearchResults: { min: 1, max: 50, default: 20 },
  /** Results per `search_context_size`. */
  contextSize: { low: 3, medium: 5, high: 10 },
  sources: { max: 4 },
} as const;

/** A responses `output_text` annotation pointing at a page the reply used. */
export interface UrlCitation {
  type: 'url_citation';
  url: string;
  title?: string;
  start_index?: number;
  end_index?: number;
}

/**
 * Live search, imitated: whether a request searches (search_parameters mode, chat
 * web_search_options, responses web_search tools), and the synthetic sources it "found". Sources
 * are plainly marked: URLs under https://sandbox.invalid/ (a reserved name that never resolves)
 * and titles starting "Synthetic source". Deterministic for a given Rng.
 */
import { SEARCH_LIMITS, type SearchParameters, type SearchSourceType, type UrlCitation, type WebSearchOptions } from '../../../shared/wire/search';
import type { Rng } from './rng';
import { keywords, topicOf } from './topic';

export interface SyntheticSource {
  type: SearchSourceType;
  url: string;
  title: string;
}

export interface SearchDecision {
  /** How many sources the search may use at most. */
  maxResults: number;
  /** Whether citations go back to the client (chat `citations`, responses annotations). */
  returnCitations: boolean;
  types: SearchSourceType[];
  /** Searched because of a responses `web_search` / `x_search` tool (a server-side tool call). */
  viaTool: boolean;
}

export interface SearchInput {
  search_parameters?: SearchParameters | null;
  web_search_options?: WebSearchOptions | null;
  /** Responses tools; only their `type` matters here. */
  tools?: ReadonlyArray<{ type: string }> | null;
}

/** Prompts that `mode: "auto"` treats as needing fresh information. */
const NEEDS_SEARCH = /\b(latest|news|today|current(ly)?|recent(ly)?|this (week|month|year)|search|look up|who won)\b/i;

/** Whether (and how) a request searches; null when it does not. */
export function decideSearch(req: SearchInput, prompt: string): SearchDecision | null {
  const sp = req.search_parameters;
  // search_parameters wins over a web_search tool (spec: "overrides a web_search_preview tool").
  if (sp) {
    const mode = sp.mode ?? 'on';
    if (mode === 'off' || (mode === 'auto' && !NEEDS_SEARCH.test(prompt))) return null;
    const types = sp.sources && sp.sources.length > 0 ? [...new Set(sp.sources.map((s) => s.type))] : (['web', 'x'] as SearchSourceType[]);
    return { maxResults: sp.max_search_results ?? SEARCH_LIMITS.maxSearchResults.default, returnCitations: sp.return_citations ?? true, types, viaTool: false };
  }
  if (req.web_search_options) {
    const size = req.web_search_options.search_context_size ?? 'medium';
    return { maxResults: SEARCH_LIMITS.contextSize[size], returnCitations: true, types: ['web'], viaTool: false };
  }
  const toolTypes = (req.tools ?? []).map((t) => t.type);
  const web = toolTypes.some((t) => t === 'web_search' || t === 'web_search_preview');
  const x = toolTypes.includes('x_search');
  if (!web && !x) return null;
  const types: SearchSourceType[] = [...(web ? (['web'] as const) : []), ...(x ? (['x'] as const) : [])];
  return { maxResults: SEARCH_LIMITS.contextSize.medium, returnCitations: true, types, viaTool: true };
}

/** The sources a search used: 3 to 6 of them, never more than `maxResults`. */
export function syntheticSources(prompt: string, decision: SearchDecision, rng: Rng): SyntheticSource[] {
  const count = Math.min(decision.maxResults, rng.int(3, 6));
  const slug = keywords(prompt, 3).join('-') || 'query';
  const topic = topicOf(prompt);
  return Array.from({ length: count }, (_, i) => {
    const type = decision.types[i % decision.types.length];
    return {
      type,
      url: `https://sandbox.invalid/${type}/${encodeURIComponent(slug)}-${i + 1}`,
      title: `Synthetic source ${i + 1}: ${topic} (${type})`,
    };
  });
}

/**
 * Appends a "Sources" line of markdown links to `text` and returns the `url_citation`
 * annotations that point at each link (indices are UTF-16 offsets into the returned text).
 */
export function citeSources(text: string, sources: readonly SyntheticSource[]): { text: string; annotations: UrlCitation[] } {
  if (sources.length === 0) return { text, annotations: [] };
  let out = `${text}\n\nSources (synthetic):`;
  const annotations: UrlCitation[] = [];
  for (const s of sources) {
    out += ' ';
    const link = `[${s.title}](${s.url})`;
    annotations.push({ type: 'url_citation', url: s.url, title: s.title, start_index: out.length, end_index: out.length + link.length });
    out += link;
  }
  return { text: out, annotations };
}

/** Decides and runs a search for a request: the sources used (empty when it does not search). */
export function searchFor(req: SearchInput, prompt: string, rng: Rng): { decision: SearchDecision | null; sources: SyntheticSource[] } {
  const decision = decideSearch(req, prompt);
  return { decision, sources: decision ? syntheticSources(prompt, decision, rng) : [] };
}

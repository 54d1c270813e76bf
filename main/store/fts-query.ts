/**
 * Turns what a person typed into the History search box into a safe FTS5 MATCH expression.
 * Every term is quoted, so FTS syntax in user text (`"`, `*`, `:`, `-`, `^`, parentheses, NEAR,
 * AND/OR/NOT) is searched for literally and never throws. Terms are ANDed; a `"quoted phrase"`
 * stays a phrase; the last bare term of at least MIN_PREFIX_CHARS characters is prefix-matched
 * so results appear while typing.
 *
 * FTS5 answers `"optim"*` by merging the full document lists of every term that starts with
 * "optim", which is slow on a large history; run-search.ts can instead expand the prefix to the
 * concrete terms (`prefixToken`) and pass them to `matchExpression` as an OR group.
 */

/** Shorter last terms are matched whole: a one- or two-letter prefix matches too much to be useful. */
export const MIN_PREFIX_CHARS = 3;

export interface ParsedSearch {
  /** Quoted terms and phrases that must all match. */
  exact: string[];
  /** The last term, to be matched as a prefix (raw text, unquoted), or null. */
  prefix: string | null;
}

/** Splits search text into terms; null when it holds nothing searchable. */
export function parseSearch(input: string): ParsedSearch | null {
  const terms: { text: string; phrase: boolean }[] = [];
  for (const match of input.matchAll(/"([^"]*)"?|([^\s"]+)/g)) {
    const phrase = match[1] !== undefined;
    const text = phrase ? match[1] : match[2];
    // A term with no letter or digit produces no tokens; FTS would match nothing at all.
    if (/[\p{L}\p{N}]/u.test(text)) terms.push({ text, phrase });
  }
  if (terms.length === 0) return null;
  const last = terms[terms.length - 1];
  const endsOpen = !/[\s"]$/.test(input);
  const prefixed = !last.phrase && endsOpen && [...last.text].length >= MIN_PREFIX_CHARS;
  const exact = (prefixed ? terms.slice(0, -1) : terms).map((t) => quote(t.text));
  return { exact, prefix: prefixed ? last.text : null };
}

/**
 * The prefix as the index stores tokens (lowercase, diacritics removed), when it is one token;
 * null when it spans several (`foo-ba`), which only FTS's own prefix syntax can match.
 */
export function prefixToken(prefix: string): string | null {
  if (!/^[\p{L}\p{N}]+$/u.test(prefix)) return null;
  return prefix.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The MATCH expression: the exact terms ANDed with the prefix, either as FTS prefix syntax or,
 * when `expansion` lists the concrete terms it stands for, as an OR group of those terms.
 */
export function matchExpression(search: ParsedSearch, expansion?: readonly string[]): string {
  const parts = [...search.exact];
  if (search.prefix !== null) {
    parts.push(expansion && expansion.length > 0 ? `(${expansion.map(quote).join(' OR ')})` : `${quote(search.prefix)}*`);
  }
  // Explicit AND: FTS5's implicit AND joins phrases only, not a parenthesised group.
  return parts.join(' AND ');
}

/** The MATCH expression for `input` in FTS's own syntax, or null when nothing is searchable. */
export function ftsMatchQuery(input: string): string | null {
  const search = parseSearch(input);
  return search ? matchExpression(search) : null;
}

function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

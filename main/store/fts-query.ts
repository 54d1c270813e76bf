/**
 * Turns what a person typed into the History search box into a safe FTS5 MATCH expression.
 * Every term is quoted, so FTS syntax in user text (`"`, `*`, `:`, `-`, `^`, parentheses, NEAR,
 * AND/OR/NOT) is searched for literally and never throws. Terms are ANDed; a `"quoted phrase"`
 * stays a phrase; the last bare term is prefix-matched so results appear while typing.
 */

/** The MATCH expression for `input`, or null when it holds nothing searchable. */
export function ftsMatchQuery(input: string): string | null {
  const terms: { text: string; phrase: boolean }[] = [];
  for (const match of input.matchAll(/"([^"]*)"?|([^\s"]+)/g)) {
    const phrase = match[1] !== undefined;
    const text = phrase ? match[1] : match[2];
    // A term with no letter or digit produces no tokens; FTS would match nothing at all.
    if (/[\p{L}\p{N}]/u.test(text)) terms.push({ text, phrase });
  }
  if (terms.length === 0) return null;
  const last = terms.length - 1;
  const endsOpen = !/[\s"]$/.test(input);
  return terms
    .map(({ text, phrase }, i) => {
      const quoted = `"${text.replace(/"/g, '""')}"`;
      return i === last && !phrase && endsOpen ? `${quoted}*` : quoted;
    })
    .join(' ');
}

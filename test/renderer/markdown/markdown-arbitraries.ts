// fast-check generators for markdown-ish documents and for ways of streaming them in chunks.
import fc from 'fast-check';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'x', '**bold**', '`code`', '_em_', 'https://example.com/a', '[link](https://example.org)', '[ref]', 'a|b', '1.', '#', '~~s~~');
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const lines = (n: number) => fc.array(words, { minLength: 1, maxLength: n });

const paragraph = lines(3).map((l) => l.join('\n'));
const atxHeading = fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([n, t]) => `${'#'.repeat(n)} ${t}`);
const setextHeading = fc.tuple(words, fc.constantFrom('===', '---', '=')).map(([t, u]) => `${t}\n${u}`);
const hr = fc.constantFrom('---', '***', '___', '- - -');
const fenceBody = fc.array(fc.oneof(words, fc.constant(''), fc.constant('```'), fc.constant('  ~~~'), fc.constant('````')), { maxLength: 6 });
const fence = fc
  .tuple(fc.constantFrom('```', '~~~', '````'), fc.constantFrom('', 'ts', 'python', 'json', 'bash', 'nope'), fenceBody, fc.boolean())
  .map(([m, lang, body, closed]) => [m + lang, ...body, ...(closed ? [m] : [])].join('\n'));
const listItem = fc.tuple(words, fc.array(fc.oneof(words.map((w) => `  ${w}`), fc.constant(''), fc.constant('  - nested')), { maxLength: 3 }));
const list = fc
  .tuple(fc.constantFrom('- ', '* ', '1. ', '2) '), fc.array(listItem, { minLength: 1, maxLength: 4 }), fc.constantFrom('\n', '\n\n'))
  .map(([marker, items, sep]) => items.map(([first, rest]) => [marker + first, ...rest].join('\n')).join(sep));
const table = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }))
  .map(([cols, rows]) => {
    const row = (c: string) => `| ${Array.from({ length: cols }, () => c).join(' | ')} |`;
    return [row('h'), row('---'), ...Array.from({ length: rows }, (_, i) => row(`v${i}`))].join('\n');
  });
const blockquote = lines(3).map((l) => l.map((x, i) => (i === 2 ? x : `> ${x}`)).join('\n'));
const indentedCode = lines(3).map((l) => l.map((x) => `    ${x}`).join('\n\n'));
const refDef = fc.constantFrom('[ref]: https://example.net/r', '[ref]: /local "Title"', '[other]: <https://x.y>');

const block = fc.oneof(paragraph, atxHeading, setextHeading, hr, fence, list, table, blockquote, indentedCode, refDef);

/** Documents built from realistic blocks joined by zero to two blank lines. */
export const markdownDocument = fc
  .array(fc.tuple(block, fc.constantFrom('\n', '\n\n', '\n\n\n', '\r\n\r\n')), { minLength: 1, maxLength: 10 })
  .map((parts) => parts.map(([b, sep]) => b + sep).join(''))
  .chain((doc) => fc.boolean().map((trim) => (trim ? doc.trimEnd() : doc)));

/** Raw fuzz over the characters markdown cares about, so unusual constructs are tried too. */
export const markdownNoise = fc
  .array(fc.constantFrom('a', 'b', ' ', '  ', '\n', '\n\n', '-', '*', '`', '```', '~~~', '#', '>', '|', '1.', '=', '[x]', ':', '\t', '    ', '_'), {
    maxLength: 80,
  })
  .map((parts) => parts.join(''));

/** Splits `text` into consecutive chunks at the given (sorted, deduplicated) positions. */
export function chunk(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.min(c, text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of [...points, text.length]) {
    out.push(text.slice(from, p));
    from = p;
  }
  return out;
}

/** A document together with random cut positions inside it. */
export const streamedDocument = (doc: fc.Arbitrary<string>) =>
  doc.chain((text) => fc.tuple(fc.constant(text), fc.array(fc.nat({ max: Math.max(text.length, 1) }), { maxLength: 30 })));

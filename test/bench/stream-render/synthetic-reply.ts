// A deterministic, markdown-heavy chat reply of a given size: paragraphs with inline markup,
// headings, lists (some loose), fenced code in several languages, tables and quotes.

/** Small seeded PRNG (mulberry32) so every run streams the same text. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the model streams tokens while the renderer keeps completed blocks frozen and only the tail changes so long replies stay smooth even on slow machines with many tabs open'.split(' ');
const CODE: Record<string, string[]> = {
  ts: ['export function add(a: number, b: number): number {', '  return a + b;', '}', '', 'const total = [1, 2, 3].reduce(add, 0);', 'console.info(`total ${total}`);'],
  python: ['def fib(n: int) -> int:', '    """Return the n-th Fibonacci number."""', '    a, b = 0, 1', '', '    for _ in range(n):', '        a, b = b, a + b', '    return a'],
  json: ['{', '  "model": "grok-4",', '  "temperature": 0.7,', '  "messages": [{ "role": "user", "content": "hi" }]', '}'],
  bash: ['set -euo pipefail', 'for f in *.md; do', '  wc -c "$f"', 'done | sort -n'],
};

/** Returns a markdown reply of (at least, then trimmed to) `size` characters. */
export function syntheticReply(size: number, seed = 42): string {
  const rnd = prng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const sentence = (): string => {
    const n = 6 + Math.floor(rnd() * 14);
    const words = Array.from({ length: n }, () => pick(WORDS));
    const i = Math.floor(rnd() * n);
    const r = rnd();
    if (r < 0.2) words[i] = `**${words[i]}**`;
    else if (r < 0.35) words[i] = `\`${words[i]}()\``;
    else if (r < 0.45) words[i] = `[${words[i]}](https://example.com/${words[i]})`;
    const s = words.join(' ');
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(rnd() * 4) }, sentence).join(' ');
  const list = () => {
    const ordered = rnd() < 0.4;
    const loose = rnd() < 0.3;
    const items = Array.from({ length: 3 + Math.floor(rnd() * 4) }, (_, i) => `${ordered ? `${i + 1}.` : '-'} ${sentence()}`);
    return items.join(loose ? '\n\n' : '\n');
  };
  const code = () => {
    const lang = pick(Object.keys(CODE));
    return `\`\`\`${lang}\n${CODE[lang].join('\n')}\n\`\`\``;
  };
  const table = () => {
    const rows = Array.from({ length: 3 + Math.floor(rnd() * 4) }, (_, i) => `| ${pick(WORDS)} | ${i * 7} | ${(rnd() * 100).toFixed(2)} |`);
    return ['| name | count | share |', '|------|------:|------:|', ...rows].join('\n');
  };
  const blocks: Array<() => string> = [paragraph, paragraph, paragraph, list, code, table, () => `## ${sentence()}`, () => `> ${sentence()}`];
  const parts: string[] = [];
  let length = 0;
  while (length < size) {
    const block = pick(blocks)();
    parts.push(block);
    length += block.length + 2;
  }
  return parts.join('\n\n').slice(0, size);
}

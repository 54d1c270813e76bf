/**
 * Markdown as one line of the text a reader sees, for previews (the Responses chain tree), where
 * `**bold**`, `# headings`, list bullets and link targets are noise. It parses with the same
 * markdown-it rules that render the answer (markdown-rules.ts), so what counts as markup is judged
 * alike in both, but without the renderer's code highlighting, which previews never need.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { MARKDOWN_RULES } from './markdown-rules';

let parser: MarkdownIt | undefined;

/** The text of inline tokens: words, inline code and image alt text; breaks become spaces. */
function inlineText(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') out += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += ' ';
    else if (t.type === 'image') out += inlineText(t.children ?? []);
  }
  return out;
}

/**
 * The text of `source` without its markdown, on one line (whitespace collapsed). Code blocks
 * keep their code; HTML stays as typed (the app never renders it, so it is text there too).
 */
export function markdownPreviewText(source: string): string {
  if (source === '') return '';
  const parts: string[] = [];
  parser ??= new MarkdownIt(MARKDOWN_RULES);
  for (const t of parser.parse(source, {})) {
    if (t.type === 'inline') parts.push(inlineText(t.children ?? []));
    else if (t.type === 'fence' || t.type === 'code_block') parts.push(t.content);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

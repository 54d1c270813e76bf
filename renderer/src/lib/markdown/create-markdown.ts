// The one markdown-it configuration used for chat and history: no raw HTML, linkified URLs,
// highlighted fences wrapped with a copy button. Splitting and rendering share it so block
// boundaries are judged by exactly the rules that render them.
import MarkdownIt from 'markdown-it';
import { highlightCode } from './highlight';
import { MARKDOWN_RULES } from './markdown-rules';

const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Creates a configured markdown-it instance (html: false, linkify: true, highlighted fences with a Copy button). */
export function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({
    ...MARKDOWN_RULES,
    highlight: (code, lang) => highlightCode(code, lang) ?? '',
  });
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const lang = tokens[idx].info.trim().split(/\s+/)[0] ?? '';
    const label = lang === '' ? 'text' : lang;
    // The button carries no handler: a delegated listener on the message root handles it (CSP forbids inline script).
    return (
      `<div class="md-code"><div class="md-code-bar"><span class="md-code-lang">${escapeAttr(label)}</span>` +
      `<button type="button" class="md-copy" data-md-copy="" aria-label="Copy code">Copy</button></div>` +
      fence(tokens, idx, options, env, self) +
      '</div>\n'
    );
  };
  return md;
}

let shared: MarkdownIt | undefined;

/** The app-wide instance, created on first use. */
export function markdown(): MarkdownIt {
  shared ??= createMarkdown();
  return shared;
}

// Turns one markdown block (or a whole document) into sanitised HTML.
import { markdown } from './create-markdown';
import { sanitizeHtml } from './sanitize';

/** markdown-it's env: link reference definitions collected so far, shared across a document's blocks. */
export interface RenderEnv {
  references?: Record<string, { href: string; title: string }>;
}

/**
 * Sanitised HTML for `source`. Reference definitions found in `source` are added to `env`, so later
 * blocks of the same document can use them; pass a copy when `source` is not final.
 */
export function renderBlock(source: string, env: RenderEnv = {}): string {
  return sanitizeHtml(markdown().render(source, env));
}

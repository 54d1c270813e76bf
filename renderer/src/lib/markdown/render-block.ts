// Turns one markdown block (or a whole document) into sanitised HTML.
import type { InjectionKey } from 'vue';
import { markdown } from './create-markdown';
import { sanitizeHtml } from './sanitize';

/** markdown-it's env: link reference definitions collected so far, shared across a document's blocks. */
export interface RenderEnv {
  references?: Record<string, { href: string; title: string }>;
}

/** Renders markdown source to HTML that is safe to insert. */
export type BlockRenderer = (source: string, env: RenderEnv) => string;

/**
 * Sanitised HTML for `source`. Reference definitions found in `source` are added to `env`, so later
 * blocks of the same document can use them; pass a copy when `source` is not final.
 */
export function renderBlock(source: string, env: RenderEnv = {}): string {
  return sanitizeHtml(markdown().render(source, env));
}

/**
 * Lets a host (or a test) provide another renderer to StreamingMarkdown; the default is
 * {@link renderBlock}. Tests under happy-dom need this: DOMPurify does not work on happy-dom.
 */
export const blockRendererKey: InjectionKey<BlockRenderer> = Symbol('markdown-block-renderer');

/**
 * What counts as markup, shared by the renderer (create-markdown.ts) and the parse-only previews
 * (preview-text.ts): no raw HTML, URLs linkified. Highlighting is the renderer's alone.
 */
export const MARKDOWN_RULES = { html: false, linkify: true } as const;

// highlight.js ships no declarations for its per-language modules; each default-exports a LanguageFn.
declare module 'highlight.js/lib/languages/*' {
  import type { LanguageFn } from 'highlight.js';
  const language: LanguageFn;
  export default language;
}

// Syntax highlighting for fenced code: highlight.js core with only the languages a chat reply
// commonly uses, so the bundle does not carry all ~190 grammars.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml,
};

for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names models write that the grammars do not alias themselves.
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['tsx', 'mts', 'cts'], { languageName: 'typescript' });
hljs.registerAliases(['jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });

/** True when `lang` (a fence info word such as "ts" or "python") has a registered grammar. */
export function isKnownLanguage(lang: string): boolean {
  return lang !== '' && hljs.getLanguage(lang) !== undefined;
}

/**
 * Highlighted HTML for `code` in `lang`, or null when the language is unknown (the caller then
 * escapes the code as plain text). No auto-detection: it is slow and often wrong on short snippets.
 */
export function highlightCode(code: string, lang: string): string | null {
  if (!isKnownLanguage(lang)) return null;
  return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
}

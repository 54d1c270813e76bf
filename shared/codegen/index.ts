/** Code export of recorded requests (curl, Python, TypeScript). Keys are never inlined. */
export { toCurl, API_KEY_ENV, type CodegenOptions } from './curl';
export { toPython } from './python';
export { toTypeScript } from './typescript';
export { shellQuote } from './shell-quote';

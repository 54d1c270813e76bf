/** POSIX shell quoting for generated commands: single quotes, with embedded ones spliced out. */

/** `it's` -> `'it'\''s'`: safe for any byte string in sh, bash and zsh. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

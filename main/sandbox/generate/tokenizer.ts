/**
 * A deterministic tokenizer of about four characters per token, shared by prompt and completion
 * counts and by streaming (each streamed delta is one token). Joining the tokens of a text gives
 * the text back exactly.
 */

const PIECES = /\s*[\p{L}\p{N}]+|\s*[^\s\p{L}\p{N}]|\s+/gu;
const MAX_WORD = 4;

/** The text's tokens: words (with their leading space) split into pieces of at most 4 letters. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(PIECES)) {
    const piece = match[0];
    const lead = /^\s*/.exec(piece)?.[0] ?? '';
    const word = piece.slice(lead.length);
    if (word.length <= MAX_WORD) {
      out.push(piece);
      continue;
    }
    const chars = Array.from(word);
    for (let i = 0; i < chars.length; i += MAX_WORD) {
      out.push((i === 0 ? lead : '') + chars.slice(i, i + MAX_WORD).join(''));
    }
  }
  return out;
}

/** Number of tokens in `text`. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

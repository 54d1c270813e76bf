/**
 * A deterministic tokenizer of about four characters per token, shared by prompt and completion
 * counts and by streaming (each streamed delta is one token). Joining the tokens of a text gives
 * the text back exactly.
 */

const PIECES = /\s*[\p{L}\p{N}]+|\s*[^\s\p{L}\p{N}]|\s+/gu;
/** Words up to this many letters are one token, like common words in real vocabularies. */
const WHOLE_WORD = 6;
const PIECE = 4;

/** The text's tokens: short words whole (with their leading space), longer ones in even pieces of about 4 letters. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(PIECES)) {
    const piece = match[0];
    const lead = /^\s*/.exec(piece)?.[0] ?? '';
    const word = piece.slice(lead.length);
    const chars = Array.from(word);
    if (chars.length <= WHOLE_WORD) {
      out.push(piece);
      continue;
    }
    const parts = Math.ceil(chars.length / PIECE);
    for (let k = 0; k < parts; k++) {
      const from = Math.round((k * chars.length) / parts);
      const to = Math.round(((k + 1) * chars.length) / parts);
      out.push((k === 0 ? lead : '') + chars.slice(from, to).join(''));
    }
  }
  return out;
}

/** Number of tokens in `text`. */
export function countTokens(text: string): number {
  return tokenize(text).length;
}

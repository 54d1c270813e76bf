/**
 * Splits an AIP-160 filter into tokens with 1-based columns (UTF-16 code units, as a text box's
 * selection counts them). Words right after a comparator are read as values: they run to the next
 * space or parenthesis, so `created_at > 2026-11-24T10:00:00Z` needs no quotes although it holds
 * `:` and `-`. A lexing problem becomes an `error` token where it happens, so the parser reports
 * whichever problem comes first in the text.
 */
import { COMPARATORS, type Comparator } from './fields';

/** Token kinds; `and`/`or`/`not` are the upper-case keywords, `minus` is a leading `-`. */
export type FilterTokenKind =
  | 'word'
  | 'string'
  | 'op'
  | 'lparen'
  | 'rparen'
  | 'and'
  | 'or'
  | 'not'
  | 'minus'
  | 'eof'
  | 'error';

/** One token. `value` is the word, the unquoted string or the operator; `message` explains an `error`. */
export interface FilterToken {
  kind: FilterTokenKind;
  value: string;
  column: number;
  length: number;
  message?: string;
}

const KEYWORDS: Record<string, FilterTokenKind> = { AND: 'and', OR: 'or', NOT: 'not' };
const OP_CHARS = '=!<>:~';
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r' };

/** The whitespace that separates tokens (ASCII only, so the printer can rely on the same set). */
export function isFilterSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v';
}

/** True for characters that start an operator; a bare value cannot start with one. */
export function isOperatorChar(c: string): boolean {
  return OP_CHARS.includes(c);
}

/** Upper-case words that are logical operators, never fields or bare values. */
export function isFilterKeyword(word: string): boolean {
  return Object.prototype.hasOwnProperty.call(KEYWORDS, word);
}

/** Tokens of `text`, ending with one `eof` or `error` token. Never throws. */
export function lexFilter(text: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let i = 0;
  let valueNext = false;
  const push = (kind: FilterTokenKind, value: string, start: number, end: number, message?: string) => {
    tokens.push({ kind, value, column: start + 1, length: end - start, ...(message ? { message } : {}) });
  };
  for (;;) {
    while (i < text.length && isFilterSpace(text[i])) i++;
    if (i >= text.length) {
      push('eof', '', i, i);
      return tokens;
    }
    const start = i;
    const c = text[i];
    const afterOp = valueNext;
    valueNext = false;
    if (c === '(' || c === ')') {
      i++;
      push(c === '(' ? 'lparen' : 'rparen', c, start, i);
    } else if (c === '"') {
      const s = readString(text, start);
      if ('message' in s) {
        push('error', '', s.at, s.end, s.message);
        return tokens;
      }
      i = s.end;
      push('string', s.value, start, i);
    } else if (isOperatorChar(c)) {
      while (i < text.length && isOperatorChar(text[i])) i++;
      const op = text.slice(start, i);
      if (!COMPARATORS.includes(op as Comparator)) {
        push('error', op, start, i, `unknown operator ${JSON.stringify(op)}; use one of ${COMPARATORS.join(' ')}`);
        return tokens;
      }
      push('op', op, start, i);
      valueNext = true;
    } else if (c === '-' && !afterOp) {
      i++;
      push('minus', '-', start, i);
    } else {
      while (i < text.length && !endsWord(text[i], afterOp)) i++;
      if (afterOp && text[i] === '"') {
        push('error', '', i, i + 1, 'a quote in the middle of a value; put the whole value in quotes');
        return tokens;
      }
      const word = text.slice(start, i);
      push(KEYWORDS[word] ?? 'word', word, start, i);
    }
  }
}

/** Values run to a space, parenthesis or quote; field names also stop at an operator. */
function endsWord(c: string, value: boolean): boolean {
  return isFilterSpace(c) || c === '(' || c === ')' || c === '"' || (!value && isOperatorChar(c));
}

type StringRead = { value: string; end: number } | { message: string; at: number; end: number };

function readString(text: string, start: number): StringRead {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') return { value, end: i + 1 };
    if (c === '\\') {
      if (i + 1 >= text.length) break;
      const escaped = ESCAPES[text[i + 1]];
      if (escaped === undefined) {
        return { message: `unknown escape \\${text[i + 1]} in a quoted string; use \\" for a quote, \\\\ for a backslash`, at: i, end: i + 2 };
      }
      value += escaped;
      i += 2;
    } else {
      value += c;
      i++;
    }
  }
  return { message: 'unterminated quoted string: add the closing "', at: start, end: text.length };
}

/**
 * AIP-160 filter parser (https://google.aip.dev/160), recursive descent over the grammar
 *
 *   filter     = [expression]
 *   expression = sequence {AND sequence}
 *   sequence   = factor {factor}                 (juxtaposition: AND-like)
 *   factor     = term {OR term}                  (so OR binds tighter than AND)
 *   term       = [NOT | "-"] simple
 *   simple     = restriction | "(" expression ")"
 *   restriction = field comparator value
 *
 * restricted to the Files fields: a restriction always has a comparator, a known field and a
 * value of the field's type (no global restrictions, member paths or functions). Every problem
 * becomes an error value with a message and a column; nothing throws to the caller.
 */
import { joinFilters, type FilterExpr } from './ast';
import { FILTER_FIELD_NAMES, FILTER_FIELDS, checkFieldValue, isFilterField, suggestFilterField, type Comparator } from './fields';
import { isFilterKeyword, lexFilter, type FilterToken } from './lexer';

/** What is wrong with a filter and where: `column` is 1-based, `length` the span to highlight. */
export interface FilterError {
  message: string;
  column: number;
  length?: number;
}

/** Result of `parseFilter`: `expr` is null for an empty (all-space) filter, which matches everything. */
export type ParseFilterResult = { ok: true; expr: FilterExpr | null } | { ok: false; error: FilterError };

/** Parentheses nest at most this deep; deeper input is refused rather than risking the stack. */
export const MAX_FILTER_DEPTH = 100;

class FilterSyntaxError extends Error {
  constructor(readonly filterError: FilterError) {
    super(filterError.message);
  }
}

function fail(message: string, token: FilterToken): never {
  throw new FilterSyntaxError({ message, column: token.column, length: token.length });
}

function describe(token: FilterToken): string {
  switch (token.kind) {
    case 'eof':
      return 'the end of the filter';
    case 'string':
      return `the quoted string ${JSON.stringify(token.value)}`;
    case 'and':
    case 'or':
    case 'not':
      return token.value;
    default:
      return JSON.stringify(token.value);
  }
}

class Parser {
  private pos = 0;

  constructor(private readonly tokens: FilterToken[]) {}

  /** The next token; a lexing error surfaces here, the first time the parser reaches it. */
  peek(): FilterToken {
    const token = this.tokens[this.pos];
    if (token.kind === 'error') fail(token.message ?? 'invalid filter', token);
    return token;
  }

  next(): FilterToken {
    const token = this.peek();
    if (token.kind !== 'eof') this.pos++;
    return token;
  }

  expression(depth: number, after: FilterToken | null): FilterExpr {
    const operands = [this.sequence(depth, after)];
    while (this.peek().kind === 'and') {
      const and = this.next();
      operands.push(this.sequence(depth, and));
    }
    return joinFilters('and', operands);
  }

  sequence(depth: number, after: FilterToken | null): FilterExpr {
    const operands = [this.factor(depth, after)];
    while (['word', 'string', 'lparen', 'not', 'minus'].includes(this.peek().kind)) {
      operands.push(this.factor(depth, null));
    }
    return joinFilters('and', operands);
  }

  factor(depth: number, after: FilterToken | null): FilterExpr {
    const operands = [this.term(depth, after)];
    while (this.peek().kind === 'or') {
      const or = this.next();
      operands.push(this.term(depth, or));
    }
    return joinFilters('or', operands);
  }

  term(depth: number, after: FilterToken | null): FilterExpr {
    const token = this.peek();
    if (token.kind === 'not' || token.kind === 'minus') {
      this.next();
      return { kind: 'not', operand: this.simple(depth, token) };
    }
    return this.simple(depth, after);
  }

  simple(depth: number, after: FilterToken | null): FilterExpr {
    const token = this.peek();
    if (token.kind === 'word') return this.restriction();
    if (token.kind !== 'lparen') this.expectedFilter(token, after);
    this.next();
    if (depth + 1 > MAX_FILTER_DEPTH) fail(`parentheses nested more than ${MAX_FILTER_DEPTH} deep`, token);
    const first = this.peek();
    if (first.kind === 'rparen') {
      throw new FilterSyntaxError({
        message: 'empty parentheses: put a filter inside',
        column: token.column,
        length: first.column + 1 - token.column,
      });
    }
    const inner = this.expression(depth + 1, token);
    const close = this.peek();
    if (close.kind === 'rparen') {
      this.next();
      return inner;
    }
    if (close.kind === 'eof') fail('unbalanced parenthesis: this "(" is never closed', token);
    fail(`expected ")" to close the "(" at column ${token.column}, found ${describe(close)}`, close);
  }

  restriction(): FilterExpr {
    const fieldToken = this.next();
    const word = fieldToken.value;
    if (!isFilterField(word)) {
      if (isFilterKeyword(word.toUpperCase())) {
        fail(`"${word}" is not a field; logical operators are written in upper case: ${word.toUpperCase()}`, fieldToken);
      }
      const previous = this.tokens[this.pos - 2];
      const beforePrevious = this.tokens[this.pos - 3];
      const hint =
        previous && beforePrevious?.kind === 'op' && (previous.kind === 'word' || previous.kind === 'string')
          ? `; to match a value with spaces, quote it: ${FILTER_FIELD_NAMES[0]}:"a b"`
          : '';
      const likely = suggestFilterField(word);
      const meant = likely ? ` (did you mean ${likely}?)` : '';
      fail(`unknown field ${JSON.stringify(word)}${meant}; known fields: ${FILTER_FIELD_NAMES.join(', ')}${hint}`, fieldToken);
    }
    const spec = FILTER_FIELDS[word];
    const opToken = this.peek();
    if (opToken.kind !== 'op') {
      const found = opToken.kind === 'eof' ? '' : `, found ${describe(opToken)}`;
      fail(`expected an operator after ${word} (one of ${spec.ops.join(' ')})${found}`, opToken);
    }
    this.next();
    const op = opToken.value as Comparator;
    if (!spec.ops.includes(op)) fail(`"${op}" is not allowed on ${word}; use one of ${spec.ops.join(' ')}`, opToken);
    const valueToken = this.peek();
    if (valueToken.kind !== 'word' && valueToken.kind !== 'string') {
      const found = valueToken.kind === 'eof' ? '' : `, found ${describe(valueToken)}`;
      const quote = isFilterKeyword(valueToken.value) ? `; to match the word, quote it: "${valueToken.value}"` : '';
      fail(`missing value after ${word}${op === ':' ? ':' : ` ${op}`}${found}${quote}`, valueToken);
    }
    this.next();
    const problem = checkFieldValue(word, valueToken.value);
    if (problem) fail(problem, valueToken);
    return { kind: 'restriction', field: word, op, value: valueToken.value };
  }

  /** Throws the message for a token that cannot start a filter at this point. */
  expectedFilter(token: FilterToken, after: FilterToken | null): never {
    if (token.kind === 'op') fail(`expected a field name before ${describe(token)}`, token);
    if (token.kind === 'string') {
      fail(`expected a field name, found ${describe(token)}; quoted text can only be a value, as in name:"a b"`, token);
    }
    if (after) fail(`expected a filter after ${describe(after)}${token.kind === 'eof' ? '' : `, found ${describe(token)}`}`, token);
    if (token.kind === 'rparen') fail('unbalanced parenthesis: this ")" has no matching "("', token);
    fail(`expected a filter before ${describe(token)}`, token);
  }

  finish(): void {
    const token = this.peek();
    if (token.kind === 'eof') return;
    if (token.kind === 'rparen') fail('unbalanced parenthesis: this ")" has no matching "("', token);
    fail(`expected AND, OR or another restriction, found ${describe(token)}`, token);
  }
}

/** Parses an AIP-160 filter over the Files fields. Never throws: problems come back as `{ ok: false, error }`. */
export function parseFilter(text: string): ParseFilterResult {
  const tokens = lexFilter(text);
  if (tokens[0].kind === 'eof') return { ok: true, expr: null };
  const parser = new Parser(tokens);
  try {
    const expr = parser.expression(0, null);
    parser.finish();
    return { ok: true, expr };
  } catch (e) {
    if (e instanceof FilterSyntaxError) return { ok: false, error: e.filterError };
    throw e;
  }
}

/** `column N: message`, for error bodies and logs that show the error without the text box. */
export function formatFilterError(error: FilterError): string {
  return `column ${error.column}: ${error.message}`;
}

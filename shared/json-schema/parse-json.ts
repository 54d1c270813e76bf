/**
 * Parsing JSON text typed by a person, with a mistake's position as line and column. Engines
 * word JSON.parse errors differently (and some give no position), so on failure a small strict
 * scanner finds the first offending character and words the message the same everywhere.
 */

/** Where and why a text is not JSON. `position` is a 0-based character offset. */
export interface JsonParseError {
  message: string;
  position: number;
  line: number;
  column: number;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: JsonParseError };

/** Parses `text`; on failure says what is wrong at which line and column (both 1-based). */
export function parseJsonText(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: locateJsonError(text) };
  }
}

/** "Unexpected '}' at line 2, column 5 (position 9)" — the one-line form for messages. */
export function describeJsonError(e: JsonParseError): string {
  return `${e.message} at line ${e.line}, column ${e.column} (position ${e.position})`;
}

class Stop {
  constructor(
    readonly message: string,
    readonly position: number,
  ) {}
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < position && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: position - start + 1 };
}

/** Finds the first error of a text JSON.parse rejected. */
export function locateJsonError(text: string): JsonParseError {
  let i = 0;
  const at = (p: number, what: string): Stop =>
    p >= text.length ? new Stop(`Unexpected end of input, expected ${what}`, text.length) : new Stop(`Unexpected ${JSON.stringify(text[p])}, expected ${what}`, p);
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) throw at(i, `"${word}"`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      if (i >= text.length) throw new Stop('Unterminated string', text.length);
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < ' ') throw new Stop('Bad control character in string (escape it, e.g. \\n)', i);
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop('Bad \\u escape in string', i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop('Bad escape in string', i);
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) throw at(i, 'a number');
    i += m[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    throw at(i, 'a value');
  };
  const object = (): void => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      ws();
      if (text[i] !== '"') throw at(i, 'a property name in double quotes');
      string();
      ws();
      if (text[i] !== ':') throw at(i, "':'");
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') return void i++;
      throw at(i, "',' or '}'");
    }
  };
  const array = (): void => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') return void i++;
      throw at(i, "',' or ']'");
    }
  };
  let stop: Stop;
  try {
    value();
    ws();
    stop = i < text.length ? at(i, 'the end of the text') : new Stop('Invalid JSON', 0);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    stop = e;
  }
  return { message: stop.message, position: stop.position, ...lineColumn(text, stop.position) };
}

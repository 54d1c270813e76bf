import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeJsonError, parseJsonText } from '../../../../shared/json-schema/parse-json';
import { formatJsonText, readSchemaText } from '../../../../shared/json-schema/schema-text';

function errorOf(text: string): string {
  const r = parseJsonText(text);
  if (r.ok) throw new Error('parsed');
  return describeJsonError(r.error);
}

describe('json-schema/parse-json', () => {
  describe('parseJsonText()', () => {
    it('returns the value of valid JSON', () => {
      expect(parseJsonText('{"a": [1, true, null]}')).toEqual({ ok: true, value: { a: [1, true, null] } });
    });

    it.each([
      ['{"a":}', 'Unexpected "}", expected a value at line 1, column 6 (position 5)'],
      ['{"a":1,}', 'Unexpected "}", expected a property name in double quotes at line 1, column 8 (position 7)'],
      ["{'a':1}", 'Unexpected "\'", expected a property name in double quotes at line 1, column 2 (position 1)'],
      ['[1 2]', "Unexpected \"2\", expected ',' or ']' at line 1, column 4 (position 3)"],
      ['{\n  "x": tru\n}', 'Unexpected "\\n", expected "true" at line 2, column 11 (position 12)'],
      ['"abc', 'Unterminated string at line 1, column 5 (position 4)'],
      ['', 'Unexpected end of input, expected a value at line 1, column 1 (position 0)'],
      ['{} x', 'Unexpected "x", expected the end of the text at line 1, column 4 (position 3)'],
      ['01', 'Unexpected "1", expected the end of the text at line 1, column 2 (position 1)'],
    ])('locates the mistake in %j', (text, message) => {
      expect(errorOf(text)).toBe(message);
    });

    it('agrees with JSON.parse on which texts are JSON (property)', () => {
      const texts = fc.oneof(
        fc.json(),
        fc.json().map((t) => t.slice(0, Math.max(0, t.length - 1))),
        fc.tuple(fc.json(), fc.nat(), fc.constantFrom(',', '}', ']', '"', ':', 'x')).map(([t, i, c]) => t.slice(0, i % (t.length + 1)) + c + t.slice(i % (t.length + 1))),
      );
      fc.assert(
        fc.property(texts, (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          const r = parseJsonText(text);
          if (r.ok !== valid) return false;
          return r.ok || (r.error.position >= 0 && r.error.position <= text.length);
        }),
      );
    });
  });
});

describe('json-schema/schema-text', () => {
  describe('readSchemaText()', () => {
    it('returns the schema with no problems when it is usable', () => {
      expect(readSchemaText('{"type":"object"}', { requireObject: true })).toEqual({ schema: { type: 'object' }, parseError: null, problems: [] });
    });

    it('explains empty text, bad JSON, a non-object and schema mistakes', () => {
      expect(readSchemaText('  ').problems).toEqual(['Write a JSON schema.']);
      expect(readSchemaText('{"type":').problems).toEqual(['Not valid JSON: Unexpected end of input, expected a value at line 1, column 9 (position 8)']);
      expect(readSchemaText('[1]').problems).toEqual(['A schema must be a JSON object, like {"type": "object", "properties": {...}}.']);
      expect(readSchemaText('{"type":"string"}', { requireObject: true }).problems).toEqual(['The schema must describe an object: set "type": "object" at the top.']);
      expect(readSchemaText('{"type":"obj"}').problems).toEqual(['type: unknown type "obj": use one of string, number, integer, boolean, object, array, null']);
    });
  });

  describe('formatJsonText()', () => {
    it('re-indents valid JSON and leaves broken text alone', () => {
      expect(formatJsonText('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
      expect(formatJsonText('{"a":')).toBe('{"a":');
    });
  });
});

import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, MAX_INPUT_DEPTH } from '../../../shared/json-shape';
import { readSchemaText } from '../../../shared/json-schema/schema-text';

const nested = (levels: number): unknown => JSON.parse(`${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`);

describe('jsonShapeProblem()', () => {
  it('accepts scalars, and objects and arrays up to the depth limit', () => {
    expect(jsonShapeProblem('text')).toBeNull();
    expect(jsonShapeProblem(null)).toBeNull();
    expect(jsonShapeProblem(nested(MAX_INPUT_DEPTH))).toBeNull();
    expect(jsonShapeProblem({ list: Array.from({ length: 10_000 }, (_, i) => ({ i })) })).toBeNull();
  });

  it('names the path where the nesting passes the limit', () => {
    expect(jsonShapeProblem(nested(MAX_INPUT_DEPTH + 1))).toEqual({ path: `a${'.a'.repeat(MAX_INPUT_DEPTH - 1)}`, message: 'nests deeper than 100 levels; flatten it' });
    expect(jsonShapeProblem([[[1]]], 2)).toEqual({ path: '[0][0]', message: 'nests deeper than 2 levels; flatten it' });
  });

  it('takes bytes as one value: a binary frame is not walked index by index', () => {
    // An own key that would be refused if the walk went into the bytes shows that it does not.
    const bytes = new Uint8Array(1024 * 1024);
    Object.defineProperty(bytes, '__proto__', { value: 1, enumerable: true });
    expect(jsonShapeProblem({ seq: 1, data: bytes, raw: new ArrayBuffer(8) })).toBeNull();
  });

  it('walks 10^5 levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(jsonShapeProblem(deep)?.message).toBe('nests deeper than 100 levels; flatten it');
  });

  it('refuses an own __proto__ key wherever it is, and allows constructor and prototype as data', () => {
    expect(jsonShapeProblem(JSON.parse('{"x":[{"y":{"__proto__":1}}]}'))).toEqual({ path: 'x[0].y', message: 'uses the key "__proto__", which is not allowed; rename it' });
    expect(jsonShapeProblem({ constructor: 1, prototype: { a: 1 } })).toBeNull();
  });
});

describe('readSchemaText() with a hostile schema', () => {
  it('names the nesting instead of overflowing in the schema check', () => {
    const text = `{"type":"object","properties":{"x":${'{"items":'.repeat(100_000)}{}${'}'.repeat(100_000)}}}`;
    const read = readSchemaText(text);
    expect(read.schema).toBeNull();
    expect(read.problems).toEqual([expect.stringMatching(/^The schema at properties\.x(\.items)+ nests deeper than 100 levels; flatten it\.$/)]);
  });
});

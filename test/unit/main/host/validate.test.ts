import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatIssuePath, parseInput } from '../../../../main/host/validate';

describe('validate', () => {
  describe('formatIssuePath()', () => {
    it('writes paths the way a person reads them', () => {
      expect(formatIssuePath(['messages', 0, 'content'])).toBe('messages[0].content');
      expect(formatIssuePath([])).toBe('');
    });
  });

  describe('parseInput()', () => {
    const schema = z.object({ a: z.number(), b: z.string(), c: z.boolean(), d: z.number(), e: z.number() }).strict();

    it('returns the parsed value', () => {
      expect(parseInput('x.y', z.object({ n: z.number().default(3) }), {})).toEqual({ ok: true, value: { n: 3 } });
    });

    it('lists every issue but keeps the message short', () => {
      const result = parseInput('x.y', schema, {});
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.issues?.map((i) => i.path)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(result.error.message).toMatch(/^Invalid input for x\.y: a: .+; b: .+; c: .+ \(and 2 more\)$/);
    });

    it('refuses 10^5 levels of nesting as invalid input instead of overflowing the stack', () => {
      const deep = JSON.parse(`{"tools":[{"parameters":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`) as unknown;
      const result = parseInput('chat.stream', z.object({ tools: z.array(z.object({ parameters: z.unknown() })) }), deep);
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      if (result.ok) return;
      expect(result.error.message).toMatch(/^Invalid input for chat\.stream: tools\[0\]\.parameters(\[0\])+ nests deeper than 100 levels; flatten it$/);
    });

    it('refuses a __proto__ key by name instead of letting it be dropped', () => {
      const input = JSON.parse('{"a":1,"b":"x","c":true,"d":2,"e":{"__proto__":{"polluted":true}}}') as unknown;
      const result = parseInput('x.y', z.object({ a: z.number(), b: z.string(), c: z.boolean(), d: z.number(), e: z.record(z.string(), z.unknown()) }), input);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.message).toBe('Invalid input for x.y: e uses the key "__proto__", which is not allowed; rename it');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});

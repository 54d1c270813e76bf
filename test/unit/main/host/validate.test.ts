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
  });
});

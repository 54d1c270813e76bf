import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaIssues } from '@/lib/form-violations';

describe('schemaIssues()', () => {
  it('names the path of each refusal, or "request" for the whole body', () => {
    const schema = z.object({ model: z.string(), n: z.number().int() });
    expect(schemaIssues(schema, { model: 'm', n: 1 })).toEqual([]);
    expect(schemaIssues(schema, { model: 3, n: 1 }).map((v) => v.field)).toEqual(['model']);
    expect(schemaIssues(schema, 'text').map((v) => v.field)).toEqual(['request']);
  });
});

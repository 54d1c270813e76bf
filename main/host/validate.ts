/**
 * Input validation at the contract boundary: turns a zod failure into an `invalid_input`
 * WorkbenchError a person can read ("request.model: choose a model"), never a throw.
 */
import type { z } from 'zod';
import type { WorkbenchError } from '../../shared/contract/errors';
import { jsonShapeProblem } from '../../shared/json-shape';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: WorkbenchError };

/** Renders a zod issue path as `messages[0].content` (empty for the root). */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** Parses `input` with the operation's schema; failures become an invalid_input error value. */
export function parseInput<S extends z.ZodType>(channel: string, schema: S, input: unknown): Parsed<z.output<S>> {
  // Before zod: its recursion would overflow on 10⁵ levels, and it drops a __proto__ key unseen.
  const shape = jsonShapeProblem(input);
  if (shape) {
    const where = shape.path || 'the input';
    return {
      ok: false,
      error: { code: 'invalid_input', message: `Invalid input for ${channel}: ${where} ${shape.message}`, issues: [shape] },
    };
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message }));
  const shown = issues.slice(0, 3).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return {
    ok: false,
    error: { code: 'invalid_input', message: `Invalid input for ${channel}: ${shown.join('; ')}${more}`, issues },
  };
}

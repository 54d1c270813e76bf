/**
 * The pure sources of a form's violations (what a schema refuses, what an editor reports), kept
 * apart from the pipeline in composables/use-form-violations.ts so that lib's form builders
 * (video-form.ts) can use them without importing a composable.
 */
import type { ZodType } from 'zod';
import type { LimitViolation } from '@shared/limits';

/** What `schema` refuses in `body`, as violations (the path joined with dots, else "request"). */
export function schemaIssues(schema: ZodType, body: unknown): LimitViolation[] {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'request', message: i.message }));
}

/** Messages from an editor (tools JSON, schema text) as violations of `field`. */
export function editorErrors(field: string, messages: readonly string[]): LimitViolation[] {
  return messages.map((message) => ({ field, message }));
}

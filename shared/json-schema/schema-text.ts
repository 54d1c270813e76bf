/**
 * A schema typed into a text box, read for a form: the parsed object when it is usable, and
 * otherwise every reason it is not (a JSON mistake with its line and column, a non-object, the
 * schema mistakes checkSchema finds), worded for showing under the editor.
 */
import { checkSchema, describeSchemaProblem } from './check-schema';
import { describeJsonError, parseJsonText, type JsonParseError } from './parse-json';
import { jsonShapeProblem } from '../json-shape';

export interface SchemaText {
  /** The parsed schema when the text is a JSON object (even with schema problems), else null. */
  schema: Record<string, unknown> | null;
  /** The JSON syntax error, if any (for placing a marker). */
  parseError: JsonParseError | null;
  /** Sentences to show; empty when the schema can be used. */
  problems: string[];
}

/** Reads `text`; `requireObject` adds the rule that the root is `"type": "object"`. */
export function readSchemaText(text: string, opts: { requireObject?: boolean; emptyMessage?: string } = {}): SchemaText {
  if (!text.trim()) return { schema: null, parseError: null, problems: [opts.emptyMessage ?? 'Write a JSON schema.'] };
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { schema: null, parseError: parsed.error, problems: [`Not valid JSON: ${describeJsonError(parsed.error)}`] };
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { schema: null, parseError: null, problems: ['A schema must be a JSON object, like {"type": "object", "properties": {...}}.'] };
  }
  // checkSchema recurses: a schema nested 10⁵ deep would overflow the stack instead of being named.
  const shape = jsonShapeProblem(v);
  if (shape) return { schema: null, parseError: null, problems: [`The schema${shape.path ? ` at ${shape.path}` : ''} ${shape.message}.`] };
  const schema = v as Record<string, unknown>;
  const problems = checkSchema(schema).map(describeSchemaProblem);
  if (opts.requireObject && schema.type !== 'object') problems.unshift('The schema must describe an object: set "type": "object" at the top.');
  return { schema, parseError: null, problems };
}

/** The text re-indented (2 spaces), or unchanged when it does not parse. */
export function formatJsonText(text: string): string {
  const parsed = parseJsonText(text);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : text;
}

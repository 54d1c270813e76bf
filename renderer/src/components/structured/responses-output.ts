/**
 * How a sent Responses request asked for its answer to be shown: the `text.format` it carried,
 * as the structured-output context the choice cards read (null for plain text).
 */
import type { StructuredContext } from './structured-context';
import { isObject } from '@shared/is-object';

/** The structured-output context of a Responses request body (null when it asked for text). */
export function structuredContextOfResponses(body: unknown): StructuredContext | null {
  const format = (body as { text?: { format?: { type?: string; schema?: unknown } } } | null | undefined)?.text?.format;
  if (format?.type === 'json_object') return { type: 'json_object', schema: null };
  if (format?.type === 'json_schema') {
    const schema = format.schema;
    return { type: 'json_schema', schema: isObject(schema) ? schema : null };
  }
  return null;
}

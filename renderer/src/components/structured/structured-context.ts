/**
 * How a view tells the choice cards (rendered deep inside RunOutput) that the run asked for
 * structured output, so they show the reply as a checked JSON tree. Provided by the view with the
 * format of the request that was actually sent; absent means plain text.
 */
import type { InjectionKey, Ref } from 'vue';

export interface StructuredContext {
  /** `json_object`: parse and show the tree; `json_schema`: also validate against `schema`. */
  type: 'json_object' | 'json_schema';
  schema: Record<string, unknown> | null;
}

export const STRUCTURED_CONTEXT: InjectionKey<Ref<StructuredContext | null>> = Symbol('structured-output');

/** The context for a chat request body (null when it asked for plain text). */
export function structuredContextOfChat(body: unknown): StructuredContext | null {
  const rf = (body as { response_format?: { type?: string; json_schema?: { schema?: unknown } } } | null)?.response_format;
  if (rf?.type === 'json_object') return { type: 'json_object', schema: null };
  if (rf?.type === 'json_schema') {
    const schema = rf.json_schema?.schema;
    return { type: 'json_schema', schema: typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : null };
  }
  return null;
}

/**
 * Structured output as the user edits it (text, json_object, or json_schema with a name, strict
 * flag and schema text) and its two wire forms: chat `response_format` (schema nested under
 * `json_schema`) and Responses `text.format` (flat).
 */
import { readSchemaText } from './schema-text';
import type { ChatResponseFormat } from '../wire/chat';
import type { ResponseTextFormat } from '../wire/responses';

export type ResponseFormatType = 'text' | 'json_object' | 'json_schema';

export interface ResponseFormatSpec {
  type: ResponseFormatType;
  name: string;
  strict: boolean;
  schemaText: string;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function defaultResponseFormat(): ResponseFormatSpec {
  return { type: 'text', name: 'response', strict: true, schemaText: '' };
}

/** What blocks sending; empty when the format can be used. */
export function responseFormatProblems(spec: ResponseFormatSpec): string[] {
  if (spec.type !== 'json_schema') return [];
  const out: string[] = [];
  if (!NAME.test(spec.name.trim())) out.push('The schema name must be 1-64 letters, digits, underscores or dashes.');
  out.push(...readSchemaText(spec.schemaText, { emptyMessage: 'Paste a JSON schema for json_schema output.' }).problems.map((p) => `Response schema: ${p}`));
  return out;
}

/** The schema object, or null while the text does not parse. */
export function responseSchema(spec: ResponseFormatSpec): Record<string, unknown> | null {
  return spec.type === 'json_schema' ? readSchemaText(spec.schemaText).schema : null;
}

/** Chat `response_format`; undefined for plain text (the service default). */
export function toChatResponseFormat(spec: ResponseFormatSpec): ChatResponseFormat | undefined {
  if (spec.type === 'text') return undefined;
  if (spec.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: spec.name.trim(), schema: responseSchema(spec) ?? {}, strict: spec.strict } };
}

/** Responses `text.format` (flat); undefined for plain text. */
export function toResponsesTextFormat(spec: ResponseFormatSpec): ResponseTextFormat | undefined {
  if (spec.type === 'text') return undefined;
  if (spec.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', name: spec.name.trim(), schema: responseSchema(spec) ?? {}, strict: spec.strict };
}

/** The spec back from a chat `response_format` (Re-run from History). */
export function responseFormatFromChat(rf: ChatResponseFormat | undefined | null): ResponseFormatSpec {
  const spec = defaultResponseFormat();
  if (!rf) return spec;
  spec.type = rf.type;
  if (rf.type === 'json_schema') {
    spec.name = rf.json_schema.name;
    spec.strict = rf.json_schema.strict !== false;
    spec.schemaText = JSON.stringify(rf.json_schema.schema, null, 2);
  }
  return spec;
}

/** The spec back from a Responses `text.format`. */
export function responseFormatFromResponses(format: ResponseTextFormat | undefined | null): ResponseFormatSpec {
  const spec = defaultResponseFormat();
  if (!format) return spec;
  spec.type = format.type;
  if (format.type === 'json_schema') {
    spec.name = format.name ?? 'response';
    spec.strict = format.strict !== false;
    spec.schemaText = JSON.stringify(format.schema, null, 2);
  }
  return spec;
}

/**
 * A tool set as a JSON file: exported as a plain array of ToolSpec; imported from that, or from
 * a `tools` array in any of the three wire formats (pasted from a request), so a set can move
 * between the playgrounds and other tools.
 */
import { parseJsonText, describeJsonError } from '../json-schema/parse-json';
import type { ToolSpec } from './tool-spec';
import { isObject } from '../is-object';

export type ToolImportResult = { ok: true; specs: ToolSpec[] } | { ok: false; message: string };

/** The JSON text an export writes. */
export function exportToolSpecs(specs: readonly ToolSpec[]): string {
  return JSON.stringify(specs, null, 2);
}

function specFrom(item: unknown, i: number): ToolSpec | string {
  if (!isObject(item)) return `item ${i + 1} is not an object`;
  // chat {type, function:{...}}; responses flat {type:"function", name, parameters}; messages {name, input_schema}
  const src = isObject(item.function) ? item.function : item;
  const name = src.name;
  if (typeof name !== 'string') return `item ${i + 1} has no "name"`;
  const params = src.parameters ?? src.input_schema ?? { type: 'object', properties: {} };
  if (!isObject(params)) return `"${name}": parameters must be an object`;
  const spec: ToolSpec = { name, description: typeof src.description === 'string' ? src.description : '', parameters: params };
  if (typeof src.strict === 'boolean') spec.strict = src.strict;
  if (typeof item.savedReply === 'string') spec.savedReply = item.savedReply;
  return spec;
}

/** Reads an exported set or a wire `tools` array (also `{tools:[...]}`). */
export function importToolSpecs(text: string): ToolImportResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, message: `The file is not valid JSON: ${describeJsonError(parsed.error)}` };
  const list = isObject(parsed.value) && Array.isArray(parsed.value.tools) ? parsed.value.tools : parsed.value;
  if (!Array.isArray(list)) return { ok: false, message: 'Expected a JSON array of tools (or an object with a "tools" array).' };
  const specs: ToolSpec[] = [];
  for (const [i, item] of list.entries()) {
    const spec = specFrom(item, i);
    if (typeof spec === 'string') return { ok: false, message: `Cannot import the tools: ${spec}.` };
    specs.push(spec);
  }
  return { ok: true, specs };
}

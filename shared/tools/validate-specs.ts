/**
 * What is wrong with a tool set before it is sent, per tool and field, in words for the editor:
 * the count limit, names the service accepts and that are unique, descriptions within a sane
 * length, and parameters that are a usable object schema.
 */
import { LIMITS } from '../limits';
import { checkSchema, describeSchemaProblem } from '../json-schema/check-schema';
import type { ToolSpec } from './tool-spec';
import { isObject } from '../is-object';

/** `index` is the tool's position (-1 for the whole set). */
export interface ToolSpecProblem {
  index: number;
  field: 'tools' | 'name' | 'description' | 'parameters';
  message: string;
}

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const TOOL_DESCRIPTION_MAX = 1024;

/** Every problem of the set; empty when it can be sent. */
export function validateToolSpecs(specs: readonly ToolSpec[]): ToolSpecProblem[] {
  const out: ToolSpecProblem[] = [];
  if (specs.length > LIMITS.tools.max) {
    out.push({ index: -1, field: 'tools', message: `At most ${LIMITS.tools.max} tools can be sent (this set has ${specs.length}).` });
  }
  const firstByName = new Map<string, number>();
  specs.forEach((s, index) => {
    const label = s.name ? `"${s.name}"` : `Tool ${index + 1}`;
    if (!s.name) out.push({ index, field: 'name', message: `Tool ${index + 1} needs a name.` });
    else if (!TOOL_NAME.test(s.name)) {
      out.push({ index, field: 'name', message: `${label}: a name is 1-64 letters, digits, underscores or dashes (no spaces or dots).` });
    } else if (firstByName.has(s.name)) {
      out.push({ index, field: 'name', message: `${label} is already the name of tool ${firstByName.get(s.name)! + 1}; names must be unique.` });
    } else firstByName.set(s.name, index);
    if (s.description.length > TOOL_DESCRIPTION_MAX) {
      out.push({ index, field: 'description', message: `${label}: the description is ${s.description.length} characters; keep it to ${TOOL_DESCRIPTION_MAX}.` });
    }
    const p = s.parameters as unknown;
    if (!isObject(p)) {
      out.push({ index, field: 'parameters', message: `${label}: parameters must be a JSON schema object.` });
    } else {
      if (s.parameters.type !== 'object') {
        out.push({ index, field: 'parameters', message: `${label}: parameters must be an object schema ("type": "object"), since arguments are named.` });
      }
      for (const problem of checkSchema(p)) out.push({ index, field: 'parameters', message: `${label} parameters: ${describeSchemaProblem(problem)}` });
    }
  });
  return out;
}

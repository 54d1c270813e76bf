/**
 * Validation of chat `tools` and `tool_choice` (wire-notes §1.3 "Chat tools"): functions only, at
 * most LIMITS.tools.max, unique names, and a named tool_choice must name a defined function.
 */
import { LIMITS } from '../limits';
import { collect, expectType, isObject, isUnset, shape, value, type RequestViolation } from './violations';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CHOICES = ['none', 'auto', 'required'] as const;

/** Rules of the `tools` array. */
export function validateTools(tools: unknown): RequestViolation[] {
  if (isUnset(tools)) return [];
  if (!Array.isArray(tools)) return [shape('tools', 'tools must be an array of function tools')];
  const out: RequestViolation[] = [];
  if (tools.length > LIMITS.tools.max) {
    out.push(value('tools', `tools must have at most ${LIMITS.tools.max} functions (got ${tools.length})`));
  }
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    const at = `tools[${i}]`;
    if (!isObject(t)) return out.push(shape(at, `${at} must be an object {type: "function", function: {...}}`));
    if (t.type !== 'function') {
      return out.push(shape(`${at}.type`, `${at}.type must be "function": only function tools are supported`));
    }
    const fn = t.function;
    if (!isObject(fn)) return out.push(shape(`${at}.function`, `${at}.function must be an object with a name`));
    if (typeof fn.name !== 'string') return out.push(shape(`${at}.function.name`, `${at}.function.name is required`));
    if (!NAME.test(fn.name)) {
      out.push(
        value(`${at}.function.name`, `${at}.function.name must be 1-64 letters, digits, underscores or dashes`),
      );
    } else if (seen.has(fn.name)) {
      out.push(value(`${at}.function.name`, `${at}.function.name "${fn.name}" is defined twice; tool names must be unique`));
    }
    seen.add(fn.name);
    out.push(
      ...collect(
        expectType(`${at}.function.description`, fn.description, 'string'),
        expectType(`${at}.function.parameters`, fn.parameters, 'object'),
        expectType(`${at}.function.strict`, fn.strict, 'boolean'),
      ),
    );
    return out.length;
  });
  return out;
}

/** Rules of `tool_choice`, given the request's tools (already validated separately). */
export function validateToolChoice(choice: unknown, tools: unknown): RequestViolation[] {
  if (isUnset(choice)) return [];
  const names = Array.isArray(tools)
    ? tools.flatMap((t) => (isObject(t) && isObject(t.function) && typeof t.function.name === 'string' ? [t.function.name] : []))
    : [];
  if (typeof choice === 'string') {
    if (!(CHOICES as readonly string[]).includes(choice)) {
      return [shape('tool_choice', 'tool_choice must be "none", "auto", "required" or {type: "function", function: {name}}')];
    }
    if (choice === 'required' && names.length === 0) {
      return [value('tool_choice', 'tool_choice "required" needs at least one tool in tools')];
    }
    return [];
  }
  if (!isObject(choice) || choice.type !== 'function' || !isObject(choice.function) || typeof choice.function.name !== 'string') {
    return [shape('tool_choice', 'tool_choice must be "none", "auto", "required" or {type: "function", function: {name}}')];
  }
  const name = choice.function.name;
  if (!names.includes(name)) {
    return [value('tool_choice.function.name', `tool_choice names the function "${name}", which is not defined in tools`)];
  }
  return [];
}

/**
 * The Messages request validator (spec "POST /v1/messages", wire-notes §1.4): model, max_tokens,
 * system, turns and blocks, sampling, stop_sequences, tools and tool_choice. Shared by the sandbox
 * (which answers with its messages), the client's pre-flight checks and the renderer's form.
 */
import { checkRange, LIMITS } from '../limits';
import { textBlock, validateMessagesTurns } from './messages-blocks';
import { collect, expectType, fromLimit, isObject, isUnset, shape, value, type RequestViolation } from './violations';

export interface MessagesValidationOptions {
  /** The target model is a reasoning model: stop_sequences are refused. */
  reasoningModel?: boolean;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** All rule violations of a Messages request body, in field order; empty when valid. */
export function validateMessagesRequest(body: unknown, opts: MessagesValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  return collect(
    validateModelField(b.model),
    requiredPositiveInt('max_tokens', b.max_tokens, 'max_tokens is required: the most tokens the reply may have'),
    validateMessagesTurns(b.messages),
    validateSystem(b.system),
    validateMetadata(b.metadata),
    validateStopSequences('stop_sequences', b.stop_sequences, opts.reasoningModel === true),
    expectType('stream', b.stream, 'boolean'),
    samplingNumber('temperature', b.temperature, LIMITS.temperature),
    samplingNumber('top_p', b.top_p, LIMITS.topP),
    nonNegativeInt('top_k', b.top_k),
    validateMessagesTools(b.tools),
    validateMessagesToolChoice(b.tool_choice, b.tools),
  );
}

/** `model` is required, a string, not blank. */
export function validateModelField(model: unknown): RequestViolation | null {
  if (isUnset(model)) return shape('model', 'model is required: give a model id or alias');
  if (typeof model !== 'string') return shape('model', 'model must be a string');
  if (model.trim() === '') return value('model', 'model must not be empty');
  return null;
}

/** A required integer of at least 1. */
export function requiredPositiveInt(field: string, v: unknown, missing: string): RequestViolation | null {
  if (isUnset(v)) return shape(field, missing);
  if (!Number.isInteger(v)) return shape(field, `${field} must be an integer`);
  return (v as number) >= 1 ? null : value(field, `${field} must be a positive integer (1 or more)`);
}

/** An optional integer of at least 0 (`top_k`: accepted, unsupported by the service, ignored). */
export function nonNegativeInt(field: string, v: unknown): RequestViolation | null {
  const type = expectType(field, v, 'integer');
  if (type || isUnset(v)) return type;
  return (v as number) >= 0 ? null : value(field, `${field} must be 0 or more`);
}

/** An optional number within a LIMITS range. */
export function samplingNumber(field: string, v: unknown, range: { min: number; max: number }): RequestViolation | null {
  return expectType(field, v, 'number') ?? fromLimit(checkRange(field, v as number, range));
}

/** `metadata: {user_id?: string | null}`. */
export function validateMetadata(metadata: unknown): RequestViolation[] {
  const type = expectType('metadata', metadata, 'object');
  if (type || isUnset(metadata)) return collect(type);
  return collect(expectType('metadata.user_id', (metadata as Record<string, unknown>).user_id, 'string'));
}

/** Up to four non-empty stop strings; refused on reasoning models. */
export function validateStopSequences(field: string, stops: unknown, reasoning: boolean): RequestViolation[] {
  if (isUnset(stops)) return [];
  if (!Array.isArray(stops)) return [shape(field, `${field} must be an array of strings`)];
  if (reasoning && stops.length > 0) {
    return [value(field, `${field} is not supported by reasoning models; remove it or pick another model`)];
  }
  const out: RequestViolation[] = [];
  if (stops.length > LIMITS.stopSequences.max) {
    out.push(value(field, `${field} must have at most ${LIMITS.stopSequences.max} sequences (got ${stops.length})`));
  }
  stops.forEach((s, i) => {
    if (typeof s !== 'string') out.push(shape(`${field}[${i}]`, `${field}[${i}] must be a string`));
    else if (s.length === 0) out.push(value(`${field}[${i}]`, `${field}[${i}] must not be empty`));
  });
  return out;
}

function validateSystem(system: unknown): RequestViolation[] {
  if (isUnset(system) || typeof system === 'string') return [];
  if (!Array.isArray(system)) return [shape('system', 'system must be a string or an array of text blocks')];
  return system.flatMap((b, i) => {
    const at = `system[${i}]`;
    if (!isObject(b) || b.type !== 'text') return [shape(at, `${at} must be a text block {type: "text", text}`)];
    return textBlock(b, at);
  });
}

/** Rules of the Messages `tools` array: {name, description?, input_schema: {type: "object", ...}}. */
export function validateMessagesTools(tools: unknown): RequestViolation[] {
  if (isUnset(tools)) return [];
  if (!Array.isArray(tools)) return [shape('tools', 'tools must be an array of {name, description, input_schema}')];
  const out: RequestViolation[] = [];
  if (tools.length > LIMITS.tools.max) {
    out.push(value('tools', `tools must have at most ${LIMITS.tools.max} tools (got ${tools.length})`));
  }
  const seen = new Set<string>();
  tools.forEach((t, i) => {
    const at = `tools[${i}]`;
    if (!isObject(t)) return out.push(shape(at, `${at} must be an object {name, description, input_schema}`));
    if (typeof t.name !== 'string') return out.push(shape(`${at}.name`, `${at}.name is required and must be a string`));
    if (!TOOL_NAME.test(t.name)) out.push(value(`${at}.name`, `${at}.name must be 1-64 letters, digits, underscores or dashes`));
    else if (seen.has(t.name)) out.push(value(`${at}.name`, `${at}.name "${t.name}" is defined twice; tool names must be unique`));
    seen.add(t.name);
    out.push(...collect(expectType(`${at}.description`, t.description, 'string'), expectType(`${at}.cache_control`, t.cache_control, 'object')));
    const schema = t.input_schema;
    if (!isObject(schema)) out.push(shape(`${at}.input_schema`, `${at}.input_schema is required: a JSON Schema object`));
    else if (schema.type !== 'object') out.push(value(`${at}.input_schema.type`, `${at}.input_schema.type must be "object"`));
    return out.length;
  });
  return out;
}

/** Rules of `tool_choice`: {type: "auto"} | {type: "any"} | {type: "tool", name}. */
export function validateMessagesToolChoice(choice: unknown, tools: unknown): RequestViolation[] {
  if (isUnset(choice)) return [];
  const form = 'tool_choice must be {type: "auto"}, {type: "any"} or {type: "tool", name}';
  if (!isObject(choice) || !['auto', 'any', 'tool'].includes(choice.type as string)) return [shape('tool_choice', form)];
  const out = collect(expectType('tool_choice.disable_parallel_tool_use', choice.disable_parallel_tool_use, 'boolean'));
  if (choice.type === 'auto') return out;
  const names = Array.isArray(tools) ? tools.flatMap((t) => (isObject(t) && typeof t.name === 'string' ? [t.name] : [])) : [];
  if (names.length === 0) {
    out.push(value('tool_choice', `tool_choice {type: "${choice.type}"} forces a tool call, so tools must define at least one tool`));
    return out;
  }
  if (choice.type === 'tool') {
    if (typeof choice.name !== 'string') out.push(shape('tool_choice.name', 'tool_choice.name is required for {type: "tool"}'));
    else if (!names.includes(choice.name)) {
      out.push(value('tool_choice.name', `tool_choice names the tool "${choice.name}", which is not defined in tools`));
    }
  }
  return out;
}

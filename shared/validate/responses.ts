/**
 * The responses request validators (spec "POST /v1/responses" and "POST /v1/responses/compact"),
 * shared by the sandbox, the client's pre-flight checks and the renderer's form. Violations have
 * `kind` `shape` (HTTP 422) or `value` (HTTP 400) like the chat validator's.
 */
import { checkIntRange, checkRange, LIMITS } from '../limits';
import { validateInput } from './responses-input';
import { validateResponseToolChoice, validateResponseTools, validateTextFormat } from './responses-tools';
import { validateSearchParameters } from './search';
import { collect, expectEnum, expectType, fromLimit, isObject, isUnset, shape, value, type RequestViolation } from './violations';

export { describeViolations } from './chat';
export type { RequestViolation } from './violations';

export interface ResponsesValidationOptions {
  /** The target model reasons: penalties are refused, reasoning effort is allowed. */
  reasoningModel?: boolean;
}

const SUMMARY = ['auto', 'concise', 'detailed'] as const;

/** All violations of a `POST /v1/responses` body, in field order; empty when valid. */
export function validateResponsesRequest(body: unknown, opts: ResponsesValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  const reasoning = opts.reasoningModel === true;
  return collect(
    validateModel(b.model),
    validateInput(b.input),
    expectType('instructions', b.instructions, 'string'),
    validatePrevious(b.previous_response_id, b.instructions),
    expectType('background', b.background, 'boolean') ??
      (b.background === true ? value('background', 'background mode is not supported; leave background unset or false') : null),
    expectType('context_management', b.context_management, 'array'),
    validateInclude(b.include),
    expectType('logprobs', b.logprobs, 'boolean'),
    expectType('top_logprobs', b.top_logprobs, 'integer') ?? fromLimit(checkIntRange('top_logprobs', b.top_logprobs as number, LIMITS.topLogprobs)),
    positiveInt('max_output_tokens', b.max_output_tokens),
    positiveInt('max_turns', b.max_turns),
    positiveInt('max_tool_calls', b.max_tool_calls),
    expectType('metadata', b.metadata, 'object'),
    expectType('min_p', b.min_p, 'number') ?? fromLimit(checkRange('min_p', b.min_p as number, { min: 0, max: 1 })),
    positiveInt('top_k', b.top_k),
    expectType('parallel_tool_calls', b.parallel_tool_calls, 'boolean'),
    expectType('prompt_cache_key', b.prompt_cache_key, 'string'),
    validateReasoning(b.reasoning, b.reasoning_effort, reasoning),
    validateSearchParameters(b.search_parameters),
    expectEnum('service_tier', b.service_tier, LIMITS.serviceTier),
    expectType('store', b.store, 'boolean'),
    expectType('stream', b.stream, 'boolean'),
    expectType('temperature', b.temperature, 'number') ?? fromLimit(checkRange('temperature', b.temperature as number, LIMITS.temperature)),
    expectType('top_p', b.top_p, 'number') ?? fromLimit(checkRange('top_p', b.top_p as number, LIMITS.topP)),
    penalty('frequency_penalty', b.frequency_penalty, reasoning),
    penalty('presence_penalty', b.presence_penalty, reasoning),
    validateTextFormat(b.text),
    validateResponseTools(b.tools),
    validateResponseToolChoice(b.tool_choice, b.tools),
    expectEnum('truncation', b.truncation, ['auto', 'disabled']),
    expectType('user', b.user, 'string'),
    expectType('safety_identifier', b.safety_identifier, 'string'),
  );
}

/** All violations of a `POST /v1/responses/compact` body. */
export function validateCompactRequest(body: unknown): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  return collect(validateModel(body.model), validateInput(body.input));
}

function validateModel(model: unknown): RequestViolation | null {
  if (model === undefined || model === null) return shape('model', 'model is required: give a model id or alias');
  if (typeof model !== 'string') return shape('model', 'model must be a string');
  if (model.trim() === '') return value('model', 'model must not be empty');
  return null;
}

function validatePrevious(previous: unknown, instructions: unknown): RequestViolation | null {
  const type = expectType('previous_response_id', previous, 'string');
  if (type || isUnset(previous)) return type;
  if ((previous as string).trim() === '') return value('previous_response_id', 'previous_response_id must not be empty');
  if (!isUnset(instructions)) {
    return value(
      'instructions',
      'instructions cannot be used together with previous_response_id; put the instructions in the first response of the chain, or send them as a system message in input',
    );
  }
  return null;
}

function validateInclude(include: unknown): RequestViolation[] {
  if (isUnset(include)) return [];
  if (!Array.isArray(include) || include.some((s) => typeof s !== 'string')) return [shape('include', 'include must be an array of strings')];
  return [];
}

function positiveInt(field: string, v: unknown): RequestViolation | null {
  const type = expectType(field, v, 'integer');
  if (type || isUnset(v)) return type;
  return (v as number) >= 1 ? null : value(field, `${field} must be a positive integer (1 or more)`);
}

function penalty(field: string, v: unknown, reasoning: boolean): RequestViolation | null {
  const type = expectType(field, v, 'number');
  if (type || isUnset(v)) return type;
  if (reasoning) return value(field, `${field} is not supported by reasoning models; remove it or pick another model`);
  return fromLimit(checkRange(field, v as number, LIMITS.penalty));
}

function validateReasoning(r: unknown, effort: unknown, reasoningModel: boolean): RequestViolation[] {
  const out: RequestViolation[] = [];
  const notSupported = (field: string): RequestViolation =>
    value(field, `${field} is only supported by reasoning models; remove it or pick a reasoning model`);
  if (!isUnset(r)) {
    if (!isObject(r)) return [shape('reasoning', 'reasoning must be an object {effort?, summary?}')];
    const e = expectEnum('reasoning.effort', r.effort, LIMITS.reasoningEffort);
    if (e) out.push(e);
    else if (!isUnset(r.effort) && !reasoningModel) out.push(notSupported('reasoning.effort'));
    out.push(...collect(expectEnum('reasoning.summary', r.summary, SUMMARY), expectEnum('reasoning.generate_summary', r.generate_summary, SUMMARY)));
  }
  const e = expectEnum('reasoning_effort', effort, LIMITS.reasoningEffort);
  if (e) out.push(e);
  else if (!isUnset(effort) && !reasoningModel) out.push(notSupported('reasoning_effort'));
  return out;
}

/**
 * The chat request validator (spec/service.md "POST /v1/chat/completions" parameter table), shared
 * by the sandbox (which answers with its messages), the client's pre-flight checks and the
 * renderer's form. Every message names the field and the rule in words a person can act on.
 */
import { checkIntRange, checkRange, LIMITS, type LimitViolation } from '../limits';
import { validateMessages } from './chat-messages';
import { validateTools, validateToolChoice } from './chat-tools';
import { validateSearchParameters, validateWebSearchOptions } from './search';
import {
  collect,
  expectEnum,
  expectType,
  fromLimit,
  isObject,
  isUnset,
  shape,
  value,
  type RequestViolation,
} from './violations';

export type { RequestViolation, ViolationKind } from './violations';

export interface ChatValidationOptions {
  /** The target model is a reasoning model: penalties and stop are refused, reasoning_effort allowed. */
  reasoningModel?: boolean;
}

/**
 * All rule violations of a chat request body, in field order; empty when the body is valid.
 * Each carries `kind`: `shape` (missing field, wrong type: HTTP 422) or `value` (HTTP 400).
 */
export function validateChatRequest(body: unknown, opts: ChatValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  const reasoning = opts.reasoningModel === true;
  return collect(
    validateModel(b.model),
    validateMessages(b.messages),
    expectType('deferred', b.deferred, 'boolean'),
    penalty('frequency_penalty', b.frequency_penalty, reasoning),
    penalty('presence_penalty', b.presence_penalty, reasoning),
    validateLogitBias(b.logit_bias),
    validateLogprobs(b.logprobs, b.top_logprobs),
    positiveInt('max_completion_tokens', b.max_completion_tokens),
    positiveInt('max_tokens', b.max_tokens),
    expectType('n', b.n, 'integer') ?? fromLimit(checkIntRange('n', b.n as number, LIMITS.n)),
    expectType('parallel_tool_calls', b.parallel_tool_calls, 'boolean'),
    expectType('prompt_cache_key', b.prompt_cache_key, 'string'),
    validateReasoningEffort(b.reasoning_effort, reasoning),
    validateResponseFormat(b.response_format),
    validateSearchParameters(b.search_parameters),
    expectType('seed', b.seed, 'integer'),
    expectEnum('service_tier', b.service_tier, LIMITS.serviceTier),
    validateStop(b.stop, reasoning),
    validateStream(b.stream, b.stream_options, b.deferred),
    expectType('temperature', b.temperature, 'number') ?? fromLimit(checkRange('temperature', b.temperature as number, LIMITS.temperature)),
    expectType('top_p', b.top_p, 'number') ?? fromLimit(checkRange('top_p', b.top_p as number, LIMITS.topP)),
    validateTools(b.tools),
    validateToolChoice(b.tool_choice, b.tools),
    expectType('user', b.user, 'string'),
    validateWebSearchOptions(b.web_search_options),
  );
}

/** One line for an error body: the first violation, plus how many more there are. */
export function describeViolations(violations: readonly LimitViolation[]): string {
  if (violations.length === 0) return '';
  const [first, ...rest] = violations;
  return rest.length === 0 ? first.message : `${first.message} (and ${rest.length} more: ${rest.map((v) => v.message).join('; ')})`;
}

function validateModel(model: unknown): RequestViolation | null {
  if (model === undefined || model === null) return shape('model', 'model is required: give a model id or alias');
  if (typeof model !== 'string') return shape('model', 'model must be a string');
  if (model.trim() === '') return value('model', 'model must not be empty');
  return null;
}

function penalty(field: string, v: unknown, reasoning: boolean): RequestViolation | null {
  const type = expectType(field, v, 'number');
  if (type) return type;
  if (isUnset(v)) return null;
  if (reasoning) return value(field, `${field} is not supported by reasoning models; remove it or pick another model`);
  return fromLimit(checkRange(field, v as number, LIMITS.penalty));
}

/** `logit_bias`: token ids (as strings) mapped to a bias within the limits. */
export function validateLogitBias(bias: unknown): RequestViolation[] {
  const type = expectType('logit_bias', bias, 'object');
  if (type || isUnset(bias)) return collect(type);
  return Object.entries(bias as Record<string, unknown>).flatMap(([token, v]) => {
    const field = `logit_bias["${token}"]`;
    if (!/^\d+$/.test(token)) return [value(field, `logit_bias keys must be token ids (integers); "${token}" is not`)];
    return collect(expectType(field, v, 'number') ?? fromLimit(checkRange(field, v as number, LIMITS.logitBias)));
  });
}

function validateLogprobs(logprobs: unknown, top: unknown): RequestViolation[] {
  const out = collect(expectType('logprobs', logprobs, 'boolean'), expectType('top_logprobs', top, 'integer'));
  if (out.length > 0 || isUnset(top)) return out;
  const range = fromLimit(checkIntRange('top_logprobs', top as number, LIMITS.topLogprobs));
  if (range) return [range];
  if (logprobs !== true) return [value('top_logprobs', 'top_logprobs needs logprobs set to true')];
  return [];
}

function positiveInt(field: string, v: unknown): RequestViolation | null {
  const type = expectType(field, v, 'integer');
  if (type || isUnset(v)) return type;
  return (v as number) >= 1 ? null : value(field, `${field} must be a positive integer (1 or more)`);
}

function validateReasoningEffort(effort: unknown, reasoning: boolean): RequestViolation | null {
  const e = expectEnum('reasoning_effort', effort, LIMITS.reasoningEffort);
  if (e || isUnset(effort)) return e;
  return reasoning ? null : value('reasoning_effort', 'reasoning_effort is only supported by reasoning models; remove it or pick a reasoning model');
}

function validateResponseFormat(format: unknown): RequestViolation[] {
  if (isUnset(format)) return [];
  if (!isObject(format)) return [shape('response_format', 'response_format must be an object with a type')];
  const type = expectEnum('response_format.type', format.type ?? '', ['text', 'json_object', 'json_schema']);
  if (type) return [type];
  if (format.type !== 'json_schema') return [];
  const js = format.json_schema;
  if (!isObject(js)) {
    return [shape('response_format.json_schema', 'response_format.json_schema is required for type "json_schema": {name, schema, strict?}')];
  }
  return collect(
    typeof js.name === 'string'
      ? /^[a-zA-Z0-9_-]{1,64}$/.test(js.name)
        ? null
        : value('response_format.json_schema.name', 'response_format.json_schema.name must be 1-64 letters, digits, underscores or dashes')
      : shape('response_format.json_schema.name', 'response_format.json_schema.name is required'),
    js.schema === undefined
      ? shape('response_format.json_schema.schema', 'response_format.json_schema.schema is required: a JSON Schema object')
      : expectType('response_format.json_schema.schema', js.schema, 'object'),
    expectType('response_format.json_schema.strict', js.strict, 'boolean'),
  );
}

function validateStop(stop: unknown, reasoning: boolean): RequestViolation[] {
  if (isUnset(stop)) return [];
  const list = typeof stop === 'string' ? [stop] : stop;
  if (!Array.isArray(list)) return [shape('stop', 'stop must be an array of strings')];
  if (reasoning) return [value('stop', 'stop is not supported by reasoning models; remove it or pick another model')];
  const out: RequestViolation[] = [];
  if (list.length > LIMITS.stopSequences.max) {
    out.push(value('stop', `stop must have at most ${LIMITS.stopSequences.max} sequences (got ${list.length})`));
  }
  list.forEach((s, i) => {
    if (typeof s !== 'string') out.push(shape(`stop[${i}]`, `stop[${i}] must be a string`));
    else if (s.length === 0) out.push(value(`stop[${i}]`, `stop[${i}] must not be empty`));
  });
  return out;
}

function validateStream(stream: unknown, options: unknown, deferred: unknown): RequestViolation[] {
  const out = collect(expectType('stream', stream, 'boolean'));
  if (!isUnset(options)) {
    if (!isObject(options)) out.push(shape('stream_options', 'stream_options must be an object {include_usage: boolean}'));
    else if (typeof options.include_usage !== 'boolean') {
      out.push(shape('stream_options.include_usage', 'stream_options.include_usage is required and must be a boolean'));
    } else if (stream !== true) {
      out.push(value('stream_options', 'stream_options is only allowed when stream is true'));
    }
  }
  if (stream === true && deferred === true) {
    out.push(value('deferred', 'deferred cannot be combined with stream: a deferred completion is fetched later in one piece'));
  }
  return out;
}

/**
 * Validators of the two legacy text endpoints: OpenAI-style `POST /v1/completions` and
 * Anthropic-style `POST /v1/complete` (spec "Text generation"). Both are refused for reasoning
 * models. Unsupported parameters (`best_of`, penalties, `logit_bias`, `suffix`, `top_k`) are
 * checked for type and range and then ignored; `stream` on /v1/complete is refused.
 */
import { checkIntRange, LIMITS } from '../limits';
import { validateLogitBias } from './chat';
import {
  nonNegativeInt,
  requiredPositiveInt,
  samplingNumber,
  validateMetadata,
  validateModelField,
  validateStopSequences,
} from './messages';
import { collect, expectType, fromLimit, isObject, isUnset, shape, value, type RequestViolation } from './violations';

export interface LegacyValidationOptions {
  /** The target model is a reasoning model: the request is refused. */
  reasoningModel?: boolean;
}

/** Legacy `logprobs`: how many alternatives per token. */
export const LEGACY_LOGPROBS = { min: 0, max: 5 } as const;
/** `best_of`: accepted (compatibility only) within this range. */
export const BEST_OF = { min: 1, max: 20 } as const;

/** The 400 a reasoning model gets on a legacy endpoint. */
export function reasoningRefusal(model: string, path: '/v1/completions' | '/v1/complete'): string {
  return `${model} is a reasoning model and does not support ${path}; use /v1/chat/completions or /v1/responses`;
}

/** All rule violations of a `/v1/completions` body; empty when valid. */
export function validateCompletionsRequest(body: unknown, opts: LegacyValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  const model = validateModelField(b.model);
  if (!model && opts.reasoningModel) return [value('model', reasoningRefusal(b.model as string, '/v1/completions'))];
  return collect(
    model,
    validatePrompt(b.prompt),
    expectType('max_tokens', b.max_tokens, 'integer') ?? nonNegativeInt('max_tokens', b.max_tokens),
    expectType('n', b.n, 'integer') ?? fromLimit(checkIntRange('n', b.n as number, LIMITS.n)),
    expectType('echo', b.echo, 'boolean'),
    validateStopSequences('stop', typeof b.stop === 'string' ? [b.stop] : b.stop, false),
    expectType('seed', b.seed, 'integer'),
    validateStream(b.stream, b.stream_options),
    samplingNumber('temperature', b.temperature, LIMITS.temperature),
    samplingNumber('top_p', b.top_p, LIMITS.topP),
    expectType('user', b.user, 'string'),
    expectType('logprobs', b.logprobs, 'integer') ?? fromLimit(checkIntRange('logprobs', b.logprobs as number, LEGACY_LOGPROBS)),
    validateBestOf(b.best_of, b.n, b.stream),
    samplingNumber('frequency_penalty', b.frequency_penalty, LIMITS.penalty),
    samplingNumber('presence_penalty', b.presence_penalty, LIMITS.penalty),
    validateLogitBias(b.logit_bias),
    expectType('suffix', b.suffix, 'string'),
  );
}

/** All rule violations of a `/v1/complete` body; empty when valid. */
export function validateCompleteRequest(body: unknown, opts: LegacyValidationOptions = {}): RequestViolation[] {
  if (!isObject(body)) return [shape('body', 'the request body must be a JSON object')];
  const b = body;
  const model = validateModelField(b.model);
  if (!model && opts.reasoningModel) return [value('model', reasoningRefusal(b.model as string, '/v1/complete'))];
  return collect(
    model,
    isUnset(b.prompt)
      ? shape('prompt', 'prompt is required: a string, e.g. "\\n\\nHuman: Hello\\n\\nAssistant:"')
      : typeof b.prompt !== 'string'
        ? shape('prompt', 'prompt must be a string')
        : b.prompt.trim() === ''
          ? value('prompt', 'prompt must not be empty')
          : null,
    requiredPositiveInt('max_tokens_to_sample', b.max_tokens_to_sample, 'max_tokens_to_sample is required: the most tokens the completion may have'),
    validateStopSequences('stop_sequences', b.stop_sequences, false),
    samplingNumber('temperature', b.temperature, LIMITS.temperature),
    samplingNumber('top_p', b.top_p, LIMITS.topP),
    nonNegativeInt('top_k', b.top_k),
    validateMetadata(b.metadata),
    expectType('stream', b.stream, 'boolean') ??
      (b.stream === true
        ? value('stream', 'streaming is not supported on /v1/complete; send stream: false, or use /v1/messages with stream: true')
        : null),
  );
}

function validatePrompt(prompt: unknown): RequestViolation[] {
  if (isUnset(prompt)) return [shape('prompt', 'prompt is required: a string or an array of strings')];
  if (typeof prompt === 'string') return [];
  if (!Array.isArray(prompt)) return [shape('prompt', 'prompt must be a string or an array of strings')];
  if (prompt.length === 0) return [value('prompt', 'prompt must contain at least one string')];
  return prompt.flatMap((p, i) =>
    typeof p === 'string' ? [] : [shape(`prompt[${i}]`, `prompt[${i}] must be a string (token-id prompts are not supported)`)],
  );
}

function validateStream(stream: unknown, options: unknown): RequestViolation[] {
  const out = collect(expectType('stream', stream, 'boolean'));
  if (isUnset(options)) return out;
  if (!isObject(options)) out.push(shape('stream_options', 'stream_options must be an object {include_usage: boolean}'));
  else if (typeof options.include_usage !== 'boolean') {
    out.push(shape('stream_options.include_usage', 'stream_options.include_usage is required and must be a boolean'));
  } else if (stream !== true) out.push(value('stream_options', 'stream_options is only allowed when stream is true'));
  return out;
}

function validateBestOf(bestOf: unknown, n: unknown, stream: unknown): RequestViolation | null {
  const type = expectType('best_of', bestOf, 'integer');
  if (type || isUnset(bestOf)) return type;
  const range = fromLimit(checkIntRange('best_of', bestOf as number, BEST_OF));
  if (range) return range;
  if (Number.isInteger(n) && (bestOf as number) < (n as number)) return value('best_of', `best_of must be at least n (${String(n)})`);
  if (stream === true && (bestOf as number) > 1) return value('best_of', 'best_of greater than 1 cannot be combined with stream');
  return null;
}

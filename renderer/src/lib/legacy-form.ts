/**
 * The legacy playground's two forms as plain data and their request bodies:
 * `POST /v1/completions` (one prompt or several, `n` choices each) and `POST /v1/complete`
 * (one Human/Assistant prompt, never streamed). Also how a completions choice index maps back
 * to its prompt and choice (index = prompt * n + choice).
 */
import type { CompleteRequest, CompletionsRequest } from '@shared/wire/completions';

export interface CompletionsForm {
  model: string;
  /** One entry sends `prompt` as a string; several send an array. */
  prompts: string[];
  maxTokens: number | null;
  n: number | null;
  echo: boolean;
  stop: string[];
  seed: number | null;
  temperature: number | null;
  topP: number | null;
  /** Legacy `logprobs`: alternatives per token (0-5); null leaves them out. */
  logprobs: number | null;
  stream: boolean;
  includeUsage: boolean;
}

export interface CompleteForm {
  model: string;
  prompt: string;
  maxTokensToSample: number | null;
  stopSequences: string[];
  temperature: number | null;
  topP: number | null;
}

/** The prompt form /v1/complete expects; the caret goes after `Human: `. */
export const COMPLETE_PROMPT_TEMPLATE = '\n\nHuman: Write a haiku about the sea.\n\nAssistant:';
export const DEFAULT_MAX_TOKENS_TO_SAMPLE = 256;

export function defaultCompletionsForm(model = ''): CompletionsForm {
  return {
    model,
    prompts: ['Once upon a time'],
    maxTokens: 128,
    n: null,
    echo: false,
    stop: [],
    seed: null,
    temperature: null,
    topP: null,
    logprobs: null,
    stream: true,
    includeUsage: true,
  };
}

export function defaultCompleteForm(model = ''): CompleteForm {
  return {
    model,
    prompt: COMPLETE_PROMPT_TEMPLATE,
    maxTokensToSample: DEFAULT_MAX_TOKENS_TO_SAMPLE,
    stopSequences: [],
    temperature: null,
    topP: null,
  };
}

/** `POST /v1/completions` body; unset parameters are left out. */
export function buildCompletionsRequest(f: CompletionsForm): CompletionsRequest {
  const req: CompletionsRequest = { model: f.model, prompt: f.prompts.length === 1 ? f.prompts[0]! : [...f.prompts] };
  if (f.maxTokens !== null) req.max_tokens = f.maxTokens;
  if (f.n !== null) req.n = f.n;
  if (f.echo) req.echo = true;
  const stop = f.stop.filter((s) => s.length > 0);
  if (stop.length) req.stop = stop;
  if (f.seed !== null) req.seed = f.seed;
  if (f.temperature !== null) req.temperature = f.temperature;
  if (f.topP !== null) req.top_p = f.topP;
  if (f.logprobs !== null) req.logprobs = f.logprobs;
  req.stream = f.stream;
  if (f.stream) req.stream_options = { include_usage: f.includeUsage };
  return req;
}

/** `POST /v1/complete` body (no `stream`: the service does not support it there). */
export function buildCompleteRequest(f: CompleteForm): CompleteRequest {
  const req = { model: f.model, prompt: f.prompt, max_tokens_to_sample: f.maxTokensToSample } as CompleteRequest;
  const stops = f.stopSequences.filter((s) => s.length > 0);
  if (stops.length) req.stop_sequences = stops;
  if (f.temperature !== null) req.temperature = f.temperature;
  if (f.topP !== null) req.top_p = f.topP;
  return req;
}

/** Which prompt and which of its choices a completions choice index is (0-based). */
export function promptChoiceOf(index: number, n: number): { prompt: number; choice: number } {
  const per = Math.max(1, Math.floor(n));
  return { prompt: Math.floor(index / per), choice: index % per };
}

/** `prompt 2, choice 1` for the choice at `index` (1-based for people). */
export function choiceLabel(index: number, n: number): string {
  const { prompt, choice } = promptChoiceOf(index, n);
  return `prompt ${prompt + 1}, choice ${choice + 1}`;
}

/** The prompts and `n` a sent completions body asked for (to label its choices). */
export function sentShape(body: unknown): { prompts: string[]; n: number } {
  const b = (body ?? {}) as { prompt?: unknown; n?: unknown };
  const prompts = typeof b.prompt === 'string' ? [b.prompt] : Array.isArray(b.prompt) ? b.prompt.filter((p): p is string => typeof p === 'string') : [];
  const n = typeof b.n === 'number' && b.n >= 1 ? Math.floor(b.n) : 1;
  return { prompts, n };
}

type Obj = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : typeof v === 'string' ? [v] : []);

/** A recorded `/v1/completions` body back into the form (Re-run in playground). */
export function completionsFormFromRequest(body: unknown): CompletionsForm {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Obj;
  const prompts = strings(b.prompt);
  const options = (typeof b.stream_options === 'object' && b.stream_options !== null ? b.stream_options : {}) as Obj;
  return {
    model: typeof b.model === 'string' ? b.model : '',
    prompts: prompts.length ? prompts : [''],
    maxTokens: num(b.max_tokens),
    n: num(b.n),
    echo: b.echo === true,
    stop: strings(b.stop),
    seed: num(b.seed),
    temperature: num(b.temperature),
    topP: num(b.top_p),
    logprobs: num(b.logprobs),
    stream: b.stream === true,
    includeUsage: options.include_usage !== false,
  };
}

/** A recorded `/v1/complete` body back into the form (Re-run in playground). */
export function completeFormFromRequest(body: unknown): CompleteForm {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Obj;
  return {
    model: typeof b.model === 'string' ? b.model : '',
    prompt: typeof b.prompt === 'string' ? b.prompt : COMPLETE_PROMPT_TEMPLATE,
    maxTokensToSample: num(b.max_tokens_to_sample),
    stopSequences: strings(b.stop_sequences),
    temperature: num(b.temperature),
    topP: num(b.top_p),
  };
}

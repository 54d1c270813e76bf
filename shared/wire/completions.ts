/**
 * Wire shapes of the two legacy text interfaces: OpenAI-style `POST /v1/completions` (request,
 * `text_completion` response and stream chunk, wire-notes §1.2) and Anthropic-style
 * `POST /v1/complete` (spec "Complete (legacy) response").
 */
import type { ChatUsage } from './chat';

export interface CompletionsRequest {
  model: string;
  /** One prompt or several; each prompt gets `n` choices. */
  prompt: string | string[];
  max_tokens?: number | null;
  n?: number | null;
  echo?: boolean | null;
  stop?: string | string[] | null;
  seed?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage: boolean } | null;
  temperature?: number | null;
  top_p?: number | null;
  user?: string | null;
  /** Legacy: number of top alternatives per token (0..5). */
  logprobs?: number | null;
  best_of?: number | null;
  frequency_penalty?: number | null;
  presence_penalty?: number | null;
  logit_bias?: Record<string, number> | null;
  suffix?: string | null;
}

/** The legacy logprobs object, one entry per generated token. */
export interface CompletionLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Array<Record<string, number>> | null;
  text_offset: number[];
}

export type CompletionFinishReason = 'stop' | 'length' | string;

export interface CompletionChoice {
  /** Prompt i, choice j -> index i*n + j. */
  index: number;
  text: string;
  finish_reason: CompletionFinishReason | null;
  logprobs: CompletionLogprobs | null;
}

export interface TextCompletion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  system_fingerprint: string | null;
  choices: CompletionChoice[];
  usage: ChatUsage;
}

/** One data-only frame of a streamed `/v1/completions`; the usage chunk has `choices: []`. */
export interface TextCompletionChunk extends Omit<TextCompletion, 'usage'> {
  usage?: ChatUsage | null;
}

/** `POST /v1/complete` request; streaming is not supported. */
export interface CompleteRequest {
  model: string;
  /** `"\n\nHuman: …\n\nAssistant:"` or a plain prompt. */
  prompt: string;
  max_tokens_to_sample: number;
  stop_sequences?: string[] | null;
  temperature?: number | null;
  top_p?: number | null;
  /** Unsupported by the service. */
  top_k?: number | null;
  metadata?: { user_id?: string | null };
  stream?: boolean | null;
}

export type CompleteStopReason = 'stop_sequence' | 'length' | 'end_turn';

export interface CompleteResponse {
  type: 'completion';
  id: string;
  completion: string;
  model: string;
  stop_reason: CompleteStopReason;
}

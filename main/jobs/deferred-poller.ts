/**
 * Polls a deferred chat completion until it is done (HTTP 200), fails, or the caller stops.
 * The interval starts at 1 s and grows to 5 s; a 202 is "still pending", never an error.
 */
import type { ApiClient } from '../api/client';
import { getDeferredCompletion } from '../api/chat';
import type { ApiError } from '../api/errors';
import { sleep } from '../api/sleep';
import type { ChatCompletion } from '../../shared/wire/chat';

export interface PollOptions {
  signal?: AbortSignal;
  onPending?: (polls: number) => void;
  firstDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A failure keeps the answer's headers (a Retry-After the job honours), null when there was no answer. */
export type PollOutcome = { ok: true; completion: ChatCompletion; polls: number } | { ok: false; error: ApiError; polls: number; headers: Record<string, string> | null };

const CANCELLED: ApiError = { kind: 'cancelled', status: null, code: null, message: 'Stopped before the deferred completion was ready.', requestId: null };

export async function pollDeferredCompletion(client: ApiClient, requestId: string, options: PollOptions = {}): Promise<PollOutcome> {
  const wait = options.sleep ?? sleep;
  let delay = options.firstDelayMs ?? 1000;
  const maxDelay = options.maxDelayMs ?? 5000;
  let polls = 0;
  for (;;) {
    if (options.signal?.aborted) return { ok: false, error: CANCELLED, polls, headers: null };
    const result = await getDeferredCompletion(client, requestId, { signal: options.signal });
    polls += 1;
    if (!result.ok) return { ok: false, error: result.error, polls, headers: result.meta?.headers ?? null };
    if (result.value.state === 'done') return { ok: true, completion: result.value.completion, polls };
    options.onPending?.(polls);
    await wait(delay, options.signal);
    delay = Math.min(maxDelay, Math.round(delay * 1.5));
  }
}

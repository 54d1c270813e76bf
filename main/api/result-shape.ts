/**
 * Checking a 2xx answer against its zod wire schema (shared/wire), so a family never hands on
 * something it would half-read: a mismatch is a `protocol` error naming the field and showing
 * what came. And the result for a request refused before sending (its capture still recorded).
 */
import type { z } from 'zod';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import type { ApiError } from './errors';

/** `result` with its value parsed by `schema`; `what` names the answer ("a custom voice"). */
export function shaped<T>(result: ApiResult<unknown>, schema: z.ZodType<T>, what: string): ApiResult<T> {
  if (!result.ok) return result;
  const parsed = schema.safeParse(result.value);
  if (parsed.success) return { ...result, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const shown = JSON.stringify(result.value ?? null).slice(0, 200);
  const error: ApiError = {
    kind: 'protocol',
    status: result.meta.status,
    code: null,
    message: `The service's answer is not ${what} (${where}${issue?.message ?? 'unexpected shape'}): ${shown}`,
    requestId: result.meta.requestId,
    body: result.value,
  };
  return { ...result, ok: false, error };
}

/** The result of a request not sent because of `error` (what it would have sent is recorded). */
export function notSent<T>(client: ApiClient, request: RequestOptions, error: ApiError): ApiResult<T> {
  return { ok: false, error, meta: null, captured: client.describe(request), retries: 0, totalMs: 0 };
}

/**
 * What the client makes of an answer it cannot hand on as a result: a non-2xx body read (bounded,
 * decoded) into an ApiError, and `protocol` errors for a 2xx it cannot use. Everything kept passes
 * the connection's scrubber, so a key the service echoes in an error never reaches a caller.
 */
import type { Dispatcher } from 'undici';
import { BodyDecodeError } from './body-decode';
import { parseJson, readBoundedText } from './body-read';
import type { ResponseMeta } from './client-types';
import { apiErrorFromResponse, type ApiError } from './errors';
import { BodyLimitError, errorBodyNotice, type LimitNotice, type ResponseLimits } from './limits';
import type { SecretScrubber } from './secret-scrubber';

/** A non-2xx answer as an ApiError (either error-body shape; the key scrubbed from body and message). */
export function errorFromResponse(scrubber: SecretScrubber, status: number, headers: Record<string, string>, text: string): ApiError {
  const parsed = parseJson(text);
  const body = scrubber.value(parsed.ok ? parsed.value : text);
  const error = apiErrorFromResponse(status, headers, body);
  error.message = scrubber.text(error.message);
  return error;
}

/**
 * A non-2xx body, decoded, its first `errorBodyBytes` read (the rest cancelled), as an ApiError;
 * a cut body says so in the message and in a notice. A body that cannot be decoded says that
 * instead of showing binary.
 */
export async function readErrorBody(
  res: Dispatcher.ResponseData,
  headers: Record<string, string>,
  limits: ResponseLimits,
  scrubber: SecretScrubber,
): Promise<{ error: ApiError; notices?: LimitNotice[] }> {
  try {
    const read = await readBoundedText(res.body, headers, limits.errorBodyBytes, limits);
    const error = errorFromResponse(scrubber, res.statusCode, headers, read.text);
    if (!read.truncated) return { error };
    const notice = errorBodyNotice(read.totalBytes, limits.errorBodyBytes);
    error.message = `${error.message.replace(/\.?$/, '.')} ${notice.message}`;
    return { error, notices: [notice] };
  } catch (e) {
    const error = errorFromResponse(scrubber, res.statusCode, headers, '');
    if (e instanceof BodyLimitError) return { error: { ...error, message: `${error.message} ${e.notice.message}` }, notices: [e.notice] };
    if (e instanceof BodyDecodeError) return { error: { ...error, message: `${error.message} ${e.message}` } };
    return { error };
  }
}

/** A `protocol` error for an answer the client cannot use (the key scrubbed from what is kept). */
export function protocolError(scrubber: SecretScrubber, meta: ResponseMeta, message: string, body?: unknown): ApiError {
  const error: ApiError = { kind: 'protocol', status: meta.status, code: null, message: scrubber.text(message), requestId: meta.requestId };
  if (body !== undefined) error.body = scrubber.value(body);
  return error;
}

/** A body that could not be decoded or hit a cap while decoding, as a `protocol` error (null for other throws). */
export function limitedBodyError(scrubber: SecretScrubber, e: unknown, meta: ResponseMeta): { error: ApiError; notices?: LimitNotice[] } | null {
  if (e instanceof BodyLimitError) return { error: protocolError(scrubber, meta, e.notice.message), notices: [e.notice] };
  if (e instanceof BodyDecodeError) return { error: protocolError(scrubber, meta, e.message) };
  return null;
}

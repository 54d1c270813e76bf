/**
 * Service-client errors as values. An ApiError says what kind of failure it was, carries the
 * HTTP status, the service's own code and the request id, and a message a person can act on.
 * toWorkbenchError() turns it into the contract's WorkbenchError at the services boundary.
 */
import type { ErrorReason, WorkbenchError } from '../../shared/contract/errors';
import { parseErrorBody } from '../../shared/wire/errors';

/**
 * `file`: a local file the request reads from or writes to failed (vanished, unreadable, disk
 * full); nothing is wrong with the service. `invalid_request`: the client refused to send a
 * request that breaks a documented rule (a PATCH with no field, 101 keyterms); nothing was sent.
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'protocol' | 'stream_incomplete' | 'file' | 'invalid_request';

/** One failed request. `body` is the service's error body (parsed JSON, or text) when there was one. */
export interface ApiError {
  kind: ApiErrorKind;
  status: number | null;
  code: string | null;
  message: string;
  requestId: string | null;
  body?: unknown;
  /** Why the service refused, when the fix depends on it (the renderer advises on this, not the words). */
  reason?: ErrorReason;
}

/** A refused key (a 401, or wire-notes §7's 400 "Incorrect API key"): fixed in Connections. */
function keyRefused(status: number, serviceMessage: string): string {
  return `The service refused the API key (${status}): ${serviceMessage}. Check the key in Connections.`;
}

/** What to do about each status, appended to the service's own words. */
const STATUS_ADVICE: Record<number, (serviceMessage: string) => string> = {
  400: (m) => `The service rejected the request (400): ${m}`,
  401: (m) => keyRefused(401, m),
  403: (m) => `The service denied access (403): ${m}. Check the key's team, permissions and credits.`,
  404: (m) => `Not found (404): ${m}. Check the model id or resource id.`,
  405: (m) => `The service does not allow this method here (405): ${m}`,
  409: (m) => `Conflict (409): ${m}`,
  413: (m) => `The request is too large for the service (413): ${m}`,
  415: (m) => `The service could not read the request body (415): ${m}`,
  422: (m) => `The service rejected a field of the request (422): ${m}`,
  429: (m) => `Rate limited or out of credits (429): ${m}. Wait a moment or check the team's spending limit.`,
  500: (m) => `The service failed internally (500): ${m}. Try again.`,
  502: (m) => `Bad gateway (502): ${m}. Try again in a moment.`,
  503: (m) => `The service is overloaded or unavailable (503): ${m}. Try again in a moment.`,
  504: (m) => `The service timed out upstream (504): ${m}. Try again.`,
};

/** Lower-cased header lookup for the three request-id headers the service and proxies use. */
export function requestIdFromHeaders(headers: Record<string, string> | null): string | null {
  if (!headers) return null;
  return headers['x-request-id'] ?? headers['x-trace-id'] ?? headers['request-id'] ?? null;
}

function describeBody(body: unknown): string {
  if (typeof body === 'string') {
    const text = body.trim();
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }
  if (body === null || body === undefined) return '';
  try {
    return JSON.stringify(body).slice(0, 300);
  } catch {
    return '';
  }
}

/**
 * Whether the service refused the API key. wire-notes §7: a missing or malformed Authorization is
 * 401, but a well-formed unknown key is 400 "Incorrect API key provided" — the same fix (the key in
 * Connections) as a 401, so it gets the same advice instead of "rejected the request (400)".
 */
export function isKeyRefusal(status: number, serviceMessage: string): boolean {
  return status === 401 || (status === 400 && /\bincorrect api key\b/i.test(serviceMessage));
}

/**
 * Builds the error for a non-2xx answer. Understands both error-body shapes (service-native
 * `{code, error}` and OpenAI `{error:{message, code|type}}`); falls back to the raw text.
 * `headers` must have lower-case names.
 */
export function apiErrorFromResponse(status: number, headers: Record<string, string>, body: unknown): ApiError {
  const parsed = parseErrorBody(body);
  const serviceMessage = (parsed?.message ?? describeBody(body)) || 'no details given';
  const refusedKey = isKeyRefusal(status, serviceMessage);
  const advice = refusedKey ? (m: string) => keyRefused(status, m) : STATUS_ADVICE[status];
  const message = advice
    ? advice(serviceMessage.replace(/\.$/, ''))
    : `The service answered HTTP ${status}: ${serviceMessage}`;
  return {
    kind: 'http',
    status,
    code: parsed?.code ?? null,
    message,
    requestId: requestIdFromHeaders(headers),
    body,
    ...(refusedKey ? { reason: 'key_refused' as const } : {}),
  };
}

const KIND_TO_CODE: Record<ApiErrorKind, WorkbenchError['code']> = {
  http: 'api_error',
  network: 'network',
  timeout: 'timeout',
  cancelled: 'cancelled',
  protocol: 'protocol',
  stream_incomplete: 'stream_incomplete',
  // The contract has no code for local files; the message names the file and what to do.
  file: 'internal',
  invalid_request: 'invalid_input',
};

/** The contract's shape of an ApiError (status, requestId and the service's code kept). */
export function toWorkbenchError(e: ApiError): WorkbenchError {
  const out: WorkbenchError = { code: KIND_TO_CODE[e.kind], message: e.message };
  if (e.status !== null) out.status = e.status;
  if (e.requestId !== null) out.requestId = e.requestId;
  if (e.code !== null) out.serviceCode = e.code;
  if (e.reason !== undefined) out.reason = e.reason;
  return out;
}

/** The error for a call the user cancelled. */
export function cancelledError(requestId: string | null = null): ApiError {
  return { kind: 'cancelled', status: null, code: null, message: 'Cancelled.', requestId };
}

/** A request the client refused to send (a documented rule broken); nothing left the machine. */
export function invalidRequestError(message: string): ApiError {
  return { kind: 'invalid_request', status: null, code: null, message, requestId: null };
}

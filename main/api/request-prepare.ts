/**
 * A request as it will be sent and as it is recorded, before anything leaves: the URL resolved
 * against the base URL, the headers (accept, user agent, content type and length, the caller's
 * extra headers, the key as `Authorization: Bearer` unless the caller set one), the payload, and
 * the inspector's copy with secrets redacted and the connection's key scrubbed. Pure.
 */
import type { CapturedRequest } from '../../shared/contract/runs';
import type { ApiClientOptions, RequestOptions } from './client-types';
import { redactHeaders } from './http-headers';
import { resolveUrl, type ResolvedUrl } from './request-url';
import type { SecretScrubber } from './secret-scrubber';
import { capturedStreamBody, isStreamBody, type StreamBody } from './stream-body';

/** A JSON text, a stream body re-opened per attempt, or nothing. */
export type Payload = string | StreamBody | undefined;

export interface PreparedRequest {
  url: ResolvedUrl;
  headers: Record<string, string>;
  payload: Payload;
  captured: CapturedRequest;
}

const DEFAULT_USER_AGENT = 'InferenceWorkbench/0.1';

/** The headers every request and WebSocket handshake on a connection carries: user agent and key. */
export function identityHeaders(connection: Pick<ApiClientOptions, 'apiKey' | 'userAgent'>): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': connection.userAgent ?? DEFAULT_USER_AGENT };
  if (connection.apiKey) headers.authorization = `Bearer ${connection.apiKey}`;
  return headers;
}

export function prepareRequest(
  connection: Pick<ApiClientOptions, 'baseUrl' | 'apiKey' | 'userAgent'>,
  options: RequestOptions,
  accept: string,
  scrubber: SecretScrubber,
): PreparedRequest {
  const url = resolveUrl(connection.baseUrl, options.path, options.query);
  const { authorization, ...identity } = identityHeaders(connection);
  const headers: Record<string, string> = { accept, ...identity };
  const stream = isStreamBody(options.body) ? options.body : null;
  const payload = stream ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (stream) {
    headers['content-type'] = stream.contentType;
    // An exact length keeps the upload out of chunked encoding (some servers refuse it for files).
    if (stream.length !== undefined) headers['content-length'] = String(stream.length);
  } else if (payload !== undefined) {
    headers['content-type'] = 'application/json';
  }
  for (const [k, v] of Object.entries(options.headers ?? {})) headers[k.toLowerCase()] = v;
  if (authorization !== undefined && headers.authorization === undefined) headers.authorization = authorization;
  const captured: CapturedRequest = {
    method: options.method,
    // The URL too: a base URL or an id can carry the key (`?api_key=`); the request goes out as given.
    url: scrubber.text(url.url),
    headers: scrubber.value(redactHeaders(headers)),
    body: stream ? capturedStreamBody(stream) : scrubber.value(options.body ?? null),
  };
  return { url, headers, payload, captured };
}

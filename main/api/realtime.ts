/**
 * The realtime voice socket's opening (spec "Voice - realtime and SIP", "Authentication" 2-4;
 * wire-notes §2.1, §6.4), for the call console of the next issue: minting an ephemeral client
 * secret, and opening `/v1/realtime` as an event socket with the API key, or with a client secret
 * either as the `svc-client-secret.<secret>` subprotocol (as a browser sends it: the key then goes
 * nowhere) or as the Bearer header. The secret is masked like the key in everything captured. A
 * SIP call (`call_id`) needs the API key: a client secret with it is refused before connecting.
 */
import { REALTIME_LIMITS, clientSecretProtocol, clientSecretSchema, parseRealtimeServerEvent, type ClientSecret, type ClientSecretRequest, type RealtimeQuery, type RealtimeServerEvent } from '../../shared/wire/realtime';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { openEventSocket, type CapturedFrame, type EventSocketOptions, type EventSocketResult, type SocketLimits } from './event-socket';
import { notSent, shaped } from './result-shape';
import type { AudioFormatHint } from './socket-capture';

export const REALTIME_PATH = '/v1/realtime';
export const CLIENT_SECRETS_PATH = '/v1/realtime/client_secrets';

/**
 * `POST /v1/realtime/client_secrets` (`expires_after.seconds` at most 3600). The answer's `value`
 * is a credential: the caller keeps it out of History (it is not the connection's key, so the
 * client's scrubber does not mask it).
 */
export async function createClientSecret(client: ApiClient, request: ClientSecretRequest = {}, opts: { signal?: AbortSignal; onRetry?: RequestOptions['onRetry'] } = {}): Promise<ApiResult<ClientSecret>> {
  const req: RequestOptions = { method: 'POST', path: CLIENT_SECRETS_PATH, body: request, ...opts };
  const seconds = request.expires_after?.seconds;
  if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 1 || seconds > REALTIME_LIMITS.clientSecretSecondsMax)) {
    return notSent(client, req, invalidRequestError(`A client secret lives 1 to ${REALTIME_LIMITS.clientSecretSecondsMax} seconds (got ${seconds}).`));
  }
  return shaped(await client.json<unknown>(req), clientSecretSchema, 'a client secret');
}

/** How the socket authenticates. */
export type RealtimeAuth = { kind: 'key' } | { kind: 'client_secret'; secret: string; via: 'protocol' | 'header' };

export interface RealtimeSocketOptions {
  query?: RealtimeQuery;
  auth?: RealtimeAuth;
  signal?: AbortSignal;
  onFrame?: (frame: CapturedFrame) => void;
  /** Which frames onFrame reads (event-socket.ts): the others cost nothing to capture. */
  captures?: EventSocketOptions<RealtimeServerEvent>['captures'];
  limits?: Partial<SocketLimits>;
  /** The session's audio formats: `input` (the microphone, sent), `output` (the model, received); for captured frames' durations. */
  audio?: { input?: AudioFormatHint; output?: AudioFormatHint };
  now?: () => number;
}

/** Opens `/v1/realtime`. Never rejects; events are validated with the realtime schemas (unknown types kept). */
export async function openRealtimeSocket(client: ApiClient, opts: RealtimeSocketOptions = {}): Promise<EventSocketResult<RealtimeServerEvent>> {
  const auth = opts.auth ?? { kind: 'key' };
  const query = { ...opts.query };
  if (auth.kind === 'client_secret' && query.call_id) {
    const captured = client.webSocketTarget(REALTIME_PATH, query).captured;
    return { ok: false, error: invalidRequestError('A SIP call (call_id) can only be joined with the API key, not a client secret.'), captured: { ...captured, headers: {} } };
  }
  const secret = auth.kind === 'client_secret' ? auth.secret : null;
  const opened = await openEventSocket<RealtimeServerEvent>(client, REALTIME_PATH, {
    query,
    signal: opts.signal,
    parse: parseRealtimeServerEvent,
    onFrame: opts.onFrame,
    captures: opts.captures,
    limits: opts.limits,
    now: opts.now,
    audio: { in: opts.audio?.output, out: opts.audio?.input },
    secrets: secret ? [secret] : [],
    ...(auth.kind === 'client_secret' && auth.via === 'protocol' ? { protocols: [clientSecretProtocol(auth.secret)], omitKey: true } : {}),
    ...(auth.kind === 'client_secret' && auth.via === 'header' ? { headers: { authorization: `Bearer ${auth.secret}` } } : {}),
  });
  return opened.ok ? opened : { ...opened, error: realtimeRefusal(opened.error, { secret: secret !== null, callId: Boolean(query.call_id) }) };
}

/**
 * The advice for a refused upgrade of `/v1/realtime`, by what this socket offered. A refused key
 * (401, or the 400 "Incorrect API key" of wire-notes §7) keeps the key's advice from errors.ts
 * (Connections); a refused client secret says a new one is minted; the rest are about the socket's
 * query, where the REST advice ("check the model id or resource id") would not say which.
 */
export function realtimeRefusal(error: ApiError, offered: { secret: boolean; callId: boolean }): ApiError {
  if (error.kind !== 'http') return error;
  if (offered.secret && error.status === 401) return secretRefusal(error);
  if (error.reason === 'key_refused') return error;
  let message = error.message;
  let reason = error.reason;
  if (error.status === 404) {
    message = message.replace(
      / Check the model id or resource id\.$/,
      offered.callId
        ? ' The call has ended or its call_id is wrong: a call can be joined only while it rings or is connected.'
        : " Check the call's model and the connection's base URL (the socket opens at <base URL>/v1/realtime).",
    );
  } else if (error.status === 403 && offered.callId) {
    message = message.replace(/ Check the key's team, permissions and credits\.$/, ' Joining a SIP call needs the API key of the team that owns its number.');
    reason = 'team_key_needed';
  } else if (error.status === 400) {
    message = `${message.replace(/[.\s]*$/, '')}. Check the call's settings sent when the socket opens (model, reasoning effort${offered.callId ? ', call_id' : ''}).`;
  }
  return { ...error, message, ...(reason ? { reason } : {}) };
}

/**
 * A 401 to a socket opened with a client secret refused the secret (expired, or unknown), not the
 * connection's key: the generic 401 advice ("check the key in Connections") would send the user
 * to fix what is not broken. Said with what does help: a new secret is minted on every start.
 */
export function secretRefusal(error: ApiError): ApiError {
  if (error.kind !== 'http' || error.status !== 401) return error;
  const message = error.message
    .replace('The service refused the API key (401)', 'The service refused the client secret (401)')
    .replace(/ Check the key in Connections\.$/, ' A client secret is short-lived: start the call again and a new one is minted (the API key was not used, and is not at fault).');
  return { ...error, message, reason: 'secret_refused' };
}

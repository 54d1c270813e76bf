/**
 * SIP phone numbers and call control (spec "Voice - realtime and SIP"; wire-notes §6.2, §6.3):
 * register (`POST /v2/phone-numbers`; its answer holds the webhook's signing secret, the only time
 * it is shown: the caller stores it with the keys and keeps it out of History), list, and for a
 * joined call `refer` (target checked before sending) and `hangup`. The service's own errors (409
 * for a number already registered, a bad E.164 number or CIDR block) come back as it says them.
 */
import { checkDigits, checkReferTarget } from '../../shared/sip/rules';
import { phoneNumberCreatedSchema, phoneNumberListSchema, type PhoneNumberCreate, type PhoneNumberCreated, type PhoneNumberList } from '../../shared/wire/sip';
import { z } from 'zod';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { invalidRequestError } from './errors';
import { notSent, shaped } from './result-shape';

export const PHONE_NUMBERS_PATH = '/v2/phone-numbers';

export interface PhoneCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
}

/** The path of a call's control endpoint. */
export function callControlPath(callId: string, action: 'refer' | 'hangup'): string {
  return `/v1/realtime/calls/${encodeURIComponent(callId)}/${action}`;
}

/**
 * `POST /v2/phone-numbers`. The client's retries apply (a 409 is retried like any 409 and comes
 * back as the service said it: "already registered").
 */
export async function createPhoneNumber(client: ApiClient, body: PhoneNumberCreate, opts: PhoneCallOptions = {}): Promise<ApiResult<PhoneNumberCreated>> {
  const result = await client.json<unknown>({ method: 'POST', path: PHONE_NUMBERS_PATH, body, ...opts });
  return shaped(result, phoneNumberCreatedSchema, 'a registered phone number');
}

/** `GET /v2/phone-numbers`: the team's numbers (no secrets). */
export async function listPhoneNumbers(client: ApiClient, opts: PhoneCallOptions = {}): Promise<ApiResult<PhoneNumberList>> {
  return shaped(await client.json<unknown>({ method: 'GET', path: PHONE_NUMBERS_PATH, ...opts }), phoneNumberListSchema, 'a list of phone numbers');
}

const controlAnswer = z.unknown();

/** `POST /v1/realtime/calls/{id}/refer {"target_uri"}`: transfers the call (`tel:+E.164` or `sip:user@host`). */
export async function referCall(client: ApiClient, callId: string, targetUri: string, opts: PhoneCallOptions = {}): Promise<ApiResult<unknown>> {
  const request: RequestOptions = { method: 'POST', path: callControlPath(callId, 'refer'), body: { target_uri: targetUri }, ...opts };
  const problem = checkReferTarget('target_uri', targetUri);
  if (problem) return notSent(client, request, invalidRequestError(problem));
  return shaped(await client.json<unknown>(request), controlAnswer, 'an answer');
}

/** `POST /v1/realtime/calls/{id}/hangup` (no body): ends a joined call, or declines a ringing one. */
export async function hangupCall(client: ApiClient, callId: string, opts: PhoneCallOptions = {}): Promise<ApiResult<unknown>> {
  return shaped(await client.json<unknown>({ method: 'POST', path: callControlPath(callId, 'hangup'), ...opts }), controlAnswer, 'an answer');
}

/** At most this many keys in one press (the sandbox's limit). */
export const SANDBOX_PRESS_MAX = 32;

/**
 * The sandbox's control API `POST /sandbox/calls/{id}/dtmf {"digits"}`: presses keys as the
 * simulated caller of a joined call (a real service has no such thing: a caller presses keys on
 * their own phone). Keys checked before sending.
 */
export async function pressSandboxKeys(client: ApiClient, callId: string, digits: string, opts: PhoneCallOptions = {}): Promise<ApiResult<unknown>> {
  const request: RequestOptions = { method: 'POST', path: `/sandbox/calls/${encodeURIComponent(callId)}/dtmf`, body: { digits }, ...opts };
  const problem = checkDigits('digits', digits, SANDBOX_PRESS_MAX);
  if (problem) return notSent(client, request, invalidRequestError(problem));
  return shaped(await client.json<unknown>(request), controlAnswer, 'an answer');
}

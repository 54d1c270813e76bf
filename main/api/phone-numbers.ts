/**
 * SIP phone numbers and call control (spec "Voice - realtime and SIP"; wire-notes §6.2, §6.3):
 * register (`POST /v2/phone-numbers`; its answer holds the webhook's signing secret, the only time
 * it is shown: the caller stores it with the keys and keeps it out of History), list, and for a
 * joined call `refer` (target checked before sending) and `hangup`. The service's own errors (409
 * for a number already registered, a bad E.164 number or CIDR block) come back as it says them;
 * the register is never sent twice (see createPhoneNumber).
 */
import { checkDigits, checkReferTarget } from '../../shared/sip/rules';
import { phoneNumberCreatedSchema, phoneNumberListSchema, type PhoneNumberCreate, type PhoneNumberCreated, type PhoneNumberList } from '../../shared/wire/sip';
import { z } from 'zod';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { notSent, shaped } from './result-shape';

export const PHONE_NUMBERS_PATH = '/v2/phone-numbers';

export interface PhoneCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
  /** Extra request headers (a sandbox's `x-sandbox-fault` in tests). */
  headers?: Record<string, string>;
}

/** The path of a call's control endpoint. */
export function callControlPath(callId: string, action: 'refer' | 'hangup'): string {
  return `/v1/realtime/calls/${encodeURIComponent(callId)}/${action}`;
}

/**
 * `POST /v2/phone-numbers`, sent once: not retried. A registration is not idempotent: one that
 * timed out may have been made, and sending it again would get a 409 for our own number (or,
 * on a service that allows it, a second registration). A 409 says the number is registered
 * already and what to do; a failure with no answer says it may have been made.
 */
export async function createPhoneNumber(client: ApiClient, body: PhoneNumberCreate, opts: PhoneCallOptions = {}): Promise<ApiResult<PhoneNumberCreated>> {
  const result = await client.json<unknown>({ method: 'POST', path: PHONE_NUMBERS_PATH, body, ...opts, retry: false });
  if (!result.ok) return { ...result, error: { ...result.error, message: registerFailure(result.error, body.phone_number) } };
  return shaped(result, phoneNumberCreatedSchema, 'a registered phone number');
}

/** A failed registration's message, with what it means for the number. */
function registerFailure(error: ApiError, phoneNumber: string | undefined): string {
  if (error.status === 409) {
    // A real service may say little ("conflict"): the sentence names the number and the way on.
    const said = error.message.replace(/^Conflict \(409\): /, '').replace(/\.$/, '');
    return `${phoneNumber ?? 'This number'} is already registered (409: ${said}). It is not registered again: if your team registered it, it is in the list of numbers (give its signing secret by hand there if it is not kept here); else use another number.`;
  }
  if (error.kind === 'timeout' || error.kind === 'network') {
    return `${error.message} The registration may have been made all the same (it was not sent again, so it cannot be made twice): refresh the list of numbers before registering ${phoneNumber ?? 'it'} again.`;
  }
  return error.message;
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

/**
 * Custom voices (spec "Voice - custom voices"; wire-notes §6.1): create (multipart, metadata
 * fields first and the reference audio `file` last, streamed from disk), list one page (`limit`
 * 1-1000, `pagination_token`), get, PATCH (the rules of 6.1 checked before sending), delete, and
 * the reference audio. Every call gives a value, never throws for a failed request.
 */
import { formatBytes } from '../../shared/byte-size';
import {
  CUSTOM_VOICE_LIMITS,
  VOICE_METADATA_FIELDS,
  customVoiceDeletedSchema,
  customVoiceListSchema,
  customVoiceSchema,
  voicePatchProblem,
  type CustomVoice,
  type CustomVoiceCreate,
  type CustomVoiceDeleted,
  type CustomVoiceList,
  type CustomVoiceListQuery,
  type CustomVoicePatch,
} from '../../shared/wire/voices';
import { readBytesBounded } from './bytes-bounded';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { filePartDescription, multipartBody, type MultipartField } from './multipart';
import { notSent, shaped } from './result-shape';

export const CUSTOM_VOICES_PATH = '/v1/custom-voices';

export interface VoiceCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
}

/** The path of one voice. */
export function customVoicePath(id: string): string {
  return `${CUSTOM_VOICES_PATH}/${encodeURIComponent(id)}`;
}

/** The reference clip: read from `path` as it is sent. */
export interface VoiceReference {
  path: string;
  filename: string;
  contentType: string;
}

/**
 * `POST /v1/custom-voices`. Metadata is checked against the enums first (`invalid_request`, nothing
 * sent); the clip's length (≤ 120 s) is the service's to check, as only decoding tells it.
 */
export async function createCustomVoice(
  client: ApiClient,
  reference: VoiceReference,
  metadata: CustomVoiceCreate,
  opts: VoiceCallOptions & { onProgress?: (sent: number, total: number) => void } = {},
): Promise<ApiResult<CustomVoice>> {
  const fields: MultipartField[] = [];
  for (const name of VOICE_METADATA_FIELDS) {
    const value = metadata[name];
    if (value !== undefined) fields.push({ name, value });
  }
  const request: RequestOptions = { method: 'POST', path: CUSTOM_VOICES_PATH, signal: opts.signal, onRetry: opts.onRetry };
  const described = (): RequestOptions => ({ ...request, body: { multipart: [...fields, filePartDescription(reference)] } });
  const problem = voicePatchProblem(metadata as Record<string, unknown>, true);
  if (problem) return notSent(client, described(), invalidRequestError(problem));
  const built = await multipartBody(fields, reference, { onProgress: opts.onProgress });
  if (!built.ok) return notSent(client, described(), built.error);
  return shaped(await client.json<unknown>({ ...request, body: built.body }), customVoiceSchema, 'a custom voice');
}

/** `GET /v1/custom-voices`: one page; pass the returned `pagination_token` for the next (null at the end). */
export async function listCustomVoices(client: ApiClient, query: CustomVoiceListQuery = {}, opts: VoiceCallOptions = {}): Promise<ApiResult<CustomVoiceList>> {
  const request: RequestOptions = { method: 'GET', path: CUSTOM_VOICES_PATH, query: { ...query }, ...opts };
  const { limit } = query;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < CUSTOM_VOICE_LIMITS.listLimitMin || limit > CUSTOM_VOICE_LIMITS.listLimitMax)) {
    return notSent(client, request, invalidRequestError(`limit must be a whole number from ${CUSTOM_VOICE_LIMITS.listLimitMin} to ${CUSTOM_VOICE_LIMITS.listLimitMax} (got ${limit}).`));
  }
  return shaped(await client.json<unknown>(request), customVoiceListSchema, 'a list of custom voices');
}

/** `GET /v1/custom-voices/{id}`. */
export async function getCustomVoice(client: ApiClient, id: string, opts: VoiceCallOptions = {}): Promise<ApiResult<CustomVoice>> {
  return shaped(await client.json<unknown>({ method: 'GET', path: customVoicePath(id), ...opts }), customVoiceSchema, 'a custom voice');
}

/** `PATCH /v1/custom-voices/{id}` (JSON): at least one metadata field; null clears; '' refused; audio cannot change. */
export async function updateCustomVoice(client: ApiClient, id: string, patch: CustomVoicePatch, opts: VoiceCallOptions = {}): Promise<ApiResult<CustomVoice>> {
  const request: RequestOptions = { method: 'PATCH', path: customVoicePath(id), body: patch, ...opts };
  const problem = voicePatchProblem(patch as Record<string, unknown>);
  if (problem) return notSent(client, request, invalidRequestError(problem));
  return shaped(await client.json<unknown>(request), customVoiceSchema, 'a custom voice');
}

/** `DELETE /v1/custom-voices/{id}` → `{deleted: true}`. */
export async function deleteCustomVoice(client: ApiClient, id: string, opts: VoiceCallOptions = {}): Promise<ApiResult<CustomVoiceDeleted>> {
  return shaped(await client.json<unknown>({ method: 'DELETE', path: customVoicePath(id), ...opts }), customVoiceDeletedSchema, 'a deletion result');
}

/** A voice's reference audio, whole. */
export interface VoiceAudio {
  bytes: Buffer;
  /** `audio/wav`, `audio/mpeg`, or `application/octet-stream` (wire-notes §6.1): trust the bytes. */
  contentType: string | null;
}

/** Largest reference audio read: 120 s of 48 kHz 16-bit stereo WAV is 23 MB. */
const DEFAULT_MAX_AUDIO_BYTES = 64 * 2 ** 20;

/** `GET /v1/custom-voices/{id}/audio`, held in memory (a clip of at most 120 s), refused past `maxBytes`. */
export async function getCustomVoiceAudio(client: ApiClient, id: string, opts: VoiceCallOptions & { maxBytes?: number } = {}): Promise<ApiResult<VoiceAudio>> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_AUDIO_BYTES;
  const { outcome, bytes, received, tooLarge } = await readBytesBounded(client, { method: 'GET', path: `${customVoicePath(id)}/audio`, signal: opts.signal, onRetry: opts.onRetry }, maxBytes);
  const base = { meta: outcome.meta, captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs };
  if (!outcome.ok || !outcome.meta) {
    const error: ApiError = outcome.error ?? { kind: 'protocol', status: null, code: null, message: 'The reference audio request ended without an answer.', requestId: null };
    return { ok: false, error, ...base };
  }
  if (tooLarge) {
    return { ok: false, error: { kind: 'protocol', status: outcome.meta.status, code: 'too_large', message: `The reference audio is larger than ${formatBytes(maxBytes)}, more than a 120 s clip can be; nothing was kept.`, requestId: outcome.meta.requestId }, ...base };
  }
  const length = Number(outcome.meta.headers['content-length']);
  if (outcome.meta.headers['content-length'] !== undefined && Number.isFinite(length) && length !== received) {
    return { ok: false, error: { kind: 'stream_incomplete', status: outcome.meta.status, code: null, message: `The reference audio broke off after ${formatBytes(received)} of ${formatBytes(length)}; nothing was kept.`, requestId: outcome.meta.requestId }, ...base };
  }
  return { ok: true, value: { bytes, contentType: outcome.meta.headers['content-type'] ?? null }, meta: outcome.meta, captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs };
}

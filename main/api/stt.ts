/**
 * Speech to text over REST (wire-notes §4.1): `POST /v1/stt` as multipart/form-data, the options
 * as text fields first and the audio `file` as the LAST part (the service requires it), streamed
 * from disk; or a `url` the service fetches instead of a file. Raw audio (pcm, mulaw, alaw) needs
 * `audio_format` and `sample_rate`. The WebSocket is stt-stream.ts. Every call gives a value.
 */
import { STT_LIMITS, sttResultSchema, type SttRequestFields, type SttResult } from '../../shared/wire/stt';
import type { ApiClient, ApiResult, RequestOptions } from './client';
import { invalidRequestError } from './errors';
import { filePartDescription, multipartBody, multipartFieldsBody, type MultipartField } from './multipart';
import { notSent, shaped } from './result-shape';

export const STT_PATH = '/v1/stt';

/** The audio: a file read from disk as it is sent, or a URL the service fetches. */
export type SttSource = { file: { path: string; filename: string; contentType: string } } | { url: string };

export interface SttCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
  /** Bytes of the multipart body handed to the socket, and its total. */
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

const RAW_FORMATS = new Set(['pcm', 'mulaw', 'ulaw', 'alaw']);

/** Why the fields break a documented rule (wire-notes §4.1, spec Limits), or null. */
export function sttFieldsProblem(fields: SttRequestFields): string | null {
  if (fields.audio_format !== undefined && RAW_FORMATS.has(fields.audio_format) && fields.sample_rate === undefined) {
    return `Raw ${fields.audio_format} audio needs its sample_rate (the service cannot tell it from the bytes).`;
  }
  if (fields.channels !== undefined && (fields.channels < STT_LIMITS.channelsMin || fields.channels > STT_LIMITS.channelsMax)) {
    return `channels must be ${STT_LIMITS.channelsMin} to ${STT_LIMITS.channelsMax} (got ${fields.channels}).`;
  }
  const terms = fields.keyterm ?? [];
  if (terms.length > STT_LIMITS.keytermsMax) return `At most ${STT_LIMITS.keytermsMax} key terms (got ${terms.length}).`;
  const long = terms.find((t) => t.length > STT_LIMITS.keytermCharsMax);
  if (long !== undefined) return `A key term may have at most ${STT_LIMITS.keytermCharsMax} characters: "${long.slice(0, 60)}…" has ${long.length}.`;
  if (fields.format === true && !fields.language) return 'Formatting (inverse text normalisation) needs a language.';
  return null;
}

/** The form fields in a fixed order; booleans as "true"/"false"; `keyterm` repeated. */
export function sttFormFields(fields: SttRequestFields): MultipartField[] {
  const out: MultipartField[] = [];
  const add = (name: string, value: string | number | boolean | undefined): void => {
    if (value !== undefined) out.push({ name, value: String(value) });
  };
  add('audio_format', fields.audio_format);
  add('sample_rate', fields.sample_rate);
  add('language', fields.language);
  add('format', fields.format);
  add('multichannel', fields.multichannel);
  add('channels', fields.channels);
  add('diarize', fields.diarize);
  add('filler_words', fields.filler_words);
  for (const term of fields.keyterm ?? []) add('keyterm', term);
  return out;
}

/**
 * `POST /v1/stt`. The fields are checked first (a broken rule is an `invalid_request` error and
 * nothing is sent); a missing or unreadable file is a `file` error. The answer must be the
 * Speech-to-text result (`protocol` error otherwise).
 */
export async function transcribe(client: ApiClient, source: SttSource, fields: SttRequestFields = {}, opts: SttCallOptions = {}): Promise<ApiResult<SttResult>> {
  const form = sttFormFields(fields);
  const request: RequestOptions = { method: 'POST', path: STT_PATH, signal: opts.signal, onRetry: opts.onRetry };
  const described = (): RequestOptions => ({ ...request, body: { multipart: 'url' in source ? [...form, { name: 'url', value: source.url }] : [...form, filePartDescription(source.file)] } });
  const problem = sttFieldsProblem(fields);
  if (problem) return notSent(client, described(), invalidRequestError(problem));
  if ('url' in source) {
    const body = multipartFieldsBody([...form, { name: 'url', value: source.url }]);
    return shaped(await client.json<unknown>({ ...request, body }), sttResultSchema, 'a speech-to-text result');
  }
  const built = await multipartBody(form, source.file, { onProgress: opts.onProgress });
  if (!built.ok) return notSent(client, described(), built.error);
  return shaped(await client.json<unknown>({ ...request, body: built.body }), sttResultSchema, 'a speech-to-text result');
}

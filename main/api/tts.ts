/**
 * Text to speech over REST (spec "Voice - text to speech"; wire-notes §3.1): `POST /v1/tts` and
 * the built-in voices. The spec answers the JSON "Text-to-speech result" (base64 `audio`); the
 * live service was seen sending the raw audio bytes instead unless `with_timestamps` is true
 * (wire-notes rule 1), so the answer is read as bytes and branched on its Content-Type. The
 * WebSocket loop is tts-stream.ts. Every call gives a value, never throws for a failed request.
 */
import { Readable } from 'node:stream';
import { formatBytes } from '../../shared/byte-size';
import { TTS_LIMITS, builtInVoiceListSchema, builtInVoiceSchema, codecOfContentType, ttsQueryProblem, ttsResultSchema, type AudioTimestamps, type BuiltInVoice, type BuiltInVoiceList, type TtsCodec, type TtsRequest } from '../../shared/wire/tts';
import { contentEncodings, decodeBody } from './body-decode';
import { readBytesBounded } from './bytes-bounded';
import type { ApiClient, ApiResult, RequestOptions, StreamOutcome } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { notSent, shaped } from './result-shape';
import { audioDurationMs, type AudioFormatHint } from './socket-capture';

export const TTS_PATH = '/v1/tts';
export const TTS_VOICES_PATH = '/v1/tts/voices';

export interface TtsCallOptions {
  signal?: AbortSignal;
  onRetry?: RequestOptions['onRetry'];
  /** Largest answer read (JSON or raw), bytes; default 128 MiB (about an hour of 128 kbps MP3 as base64 JSON). */
  maxBytes?: number;
}

/** Synthesised speech, whichever form the service answered in. */
export interface Speech {
  audio: Buffer;
  contentType: string;
  /** The codec the audio is in (from its Content-Type, else the one asked for). */
  codec: TtsCodec | null;
  /** Seconds: the service's `duration`, or estimated from the size for raw answers (null for MP3 without a bit rate). */
  duration: number | null;
  durationSource: 'service' | 'estimate' | null;
  timestamps: AudioTimestamps | null;
  /** How the service answered: the spec's JSON, or raw bytes. */
  form: 'json' | 'raw';
  traceId: string | null;
}

const DEFAULT_MAX_BYTES = 128 * 2 ** 20;

/** The format hint of a codec (for duration estimates). */
export function ttsAudioHint(codec: TtsCodec | null | undefined, sampleRate?: number, bitRate?: number): AudioFormatHint {
  const c = codec ?? TTS_LIMITS.codecDefault;
  const normal = c === 'ulaw' ? 'mulaw' : c;
  return { codec: normal, sampleRate: sampleRate ?? TTS_LIMITS.sampleRateDefault, channels: 1, bitRate: normal === 'mp3' ? (bitRate ?? TTS_LIMITS.bitRateDefault) : undefined };
}

/**
 * The body with its Content-Encoding undone (a proxy may gzip even audio; the raw reader passes
 * bytes as sent), at most `maxBytes` decoded; a string says why it could not be.
 */
async function decoded(body: Buffer, encoding: string | undefined, client: ApiClient, maxBytes: number): Promise<Buffer | string> {
  if (contentEncodings(encoding).length === 0) return body;
  try {
    const out = decodeBody(Readable.from([body]), encoding, client.responseLimits);
    const parts: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of out.chunks) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        out.close();
        return `The speech answer decodes to more than ${formatBytes(maxBytes)}, the most the workbench reads for one request; nothing was kept.`;
      }
      parts.push(chunk);
    }
    return Buffer.concat(parts);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/**
 * How long `POST /v1/tts` waits for its answer: a service may answer only when all the speech is
 * made, which for long text takes minutes (the sandbox made MP3 at about 33 ms a character on a
 * loaded machine: 60,000 characters about half an hour; test/bench/tts-long-rest.ts). The
 * connection's 60 s would refuse any text over a couple of thousand characters; the person can
 * Stop at any time (the request is aborted).
 */
export function restAnswerWaitMs(chars: number): number {
  return Math.max(60_000, Math.round(chars * 60));
}

function fail(outcome: StreamOutcome, error: ApiError): ApiResult<Speech> {
  return { ok: false, error, meta: outcome.meta, captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs, ...(outcome.notices ? { notices: outcome.notices } : {}) };
}

/**
 * `POST /v1/tts`. The text (60,000 characters) and the documented field rules (ttsQueryProblem)
 * are checked before anything is sent. A JSON answer must be the Text-to-speech result; an `audio/*` (or octet-stream) answer is
 * the audio itself; anything else is a `protocol` error. An answer over `maxBytes` is refused
 * while it arrives.
 */
export async function synthesize(client: ApiClient, request: TtsRequest, opts: TtsCallOptions = {}): Promise<ApiResult<Speech>> {
  const req: RequestOptions = { method: 'POST', path: TTS_PATH, body: request, signal: opts.signal, onRetry: opts.onRetry, headersTimeoutMs: restAnswerWaitMs(request.text.length) };
  if (request.text.length > TTS_LIMITS.maxTextChars) {
    return notSent(client, req, invalidRequestError(`The text is ${request.text.length.toLocaleString('en-US')} characters; the service takes at most ${TTS_LIMITS.maxTextChars.toLocaleString('en-US')}. Shorten it or split it into several requests.`));
  }
  const f = request.output_format;
  const problem = ttsQueryProblem({ language: request.language, codec: f?.codec, sample_rate: f?.sample_rate, bit_rate: f?.bit_rate, speed: request.speed, optimize_streaming_latency: request.optimize_streaming_latency });
  if (problem) return notSent(client, req, invalidRequestError(problem));
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const { outcome, bytes, tooLarge } = await readBytesBounded(client, req, maxBytes);
  if (!outcome.ok || !outcome.meta) return fail(outcome, outcome.error ?? { kind: 'protocol', status: null, code: null, message: 'The speech request ended without an answer.', requestId: null });
  const { meta } = outcome;
  const protocol = (message: string, body?: unknown): ApiError => ({ kind: 'protocol', status: meta.status, code: null, message, requestId: meta.requestId, ...(body !== undefined ? { body } : {}) });
  if (tooLarge) return fail(outcome, protocol(`The speech answer is larger than ${formatBytes(maxBytes)}, the most the workbench reads for one request; nothing was kept. Use streaming, a compressed codec, or shorter text.`));
  const body = await decoded(bytes, meta.headers['content-encoding'], client, maxBytes);
  if (typeof body === 'string') return fail(outcome, protocol(body));
  const contentType = (meta.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const traceId = meta.headers['x-trace-id'] ?? meta.requestId;
  const asked = request.output_format;
  const base = { meta, captured: outcome.captured, retries: outcome.retries, totalMs: outcome.totalMs };

  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return fail(outcome, protocol(`The service answered with JSON that does not parse: ${client.scrubber.text(body.subarray(0, 120).toString('utf8'))}`));
    }
    const audioText = (value as { audio?: unknown } | null)?.audio;
    // The audio is the user's sound: kept out of the scrubber (which would cost a pass over megabytes and could alter it).
    const rest = client.scrubber.value(typeof audioText === 'string' ? { ...(value as object), audio: '' } : value);
    const checked = shaped({ ok: true, value: rest, ...base }, ttsResultSchema, 'a text-to-speech result');
    if (!checked.ok) return checked;
    const audio = Buffer.from(audioText as string, 'base64');
    const type = checked.value.content_type ?? null;
    return {
      ok: true,
      value: {
        audio,
        contentType: type ?? 'application/octet-stream',
        codec: codecOfContentType(type) ?? asked?.codec ?? null,
        duration: checked.value.duration ?? null,
        durationSource: checked.value.duration !== undefined ? 'service' : null,
        timestamps: checked.value.audio_timestamps ?? null,
        form: 'json',
        traceId,
      },
      ...base,
    };
  }
  if (contentType.startsWith('audio/') || contentType === 'application/octet-stream' || contentType === '') {
    const codec = codecOfContentType(contentType) ?? asked?.codec ?? null;
    const ms = audioDurationMs(body.byteLength, ttsAudioHint(codec, asked?.sample_rate, asked?.bit_rate), body.subarray(0, 64));
    return {
      ok: true,
      value: { audio: body, contentType: contentType || 'application/octet-stream', codec, duration: ms === null ? null : Math.round(ms) / 1000, durationSource: ms === null ? null : 'estimate', timestamps: null, form: 'raw', traceId },
      ...base,
    };
  }
  return fail(outcome, protocol(`The service answered the speech request with ${contentType}, neither audio nor the JSON result: ${client.scrubber.text(body.subarray(0, 120).toString('utf8'))}`));
}

/** `GET /v1/tts/voices`. */
export async function listBuiltInVoices(client: ApiClient, opts: Omit<TtsCallOptions, 'maxBytes'> = {}): Promise<ApiResult<BuiltInVoiceList>> {
  return shaped(await client.json<unknown>({ method: 'GET', path: TTS_VOICES_PATH, ...opts }), builtInVoiceListSchema, 'a list of voices');
}

/** `GET /v1/tts/voices/{id}` (the service matches ids case-insensitively). */
export async function getBuiltInVoice(client: ApiClient, id: string, opts: Omit<TtsCallOptions, 'maxBytes'> = {}): Promise<ApiResult<BuiltInVoice>> {
  return shaped(await client.json<unknown>({ method: 'GET', path: `${TTS_VOICES_PATH}/${encodeURIComponent(id)}`, ...opts }), builtInVoiceSchema, 'a voice');
}

/**
 * Streaming text to speech over the WebSocket `/v1/tts` (spec "Streaming text-to-speech
 * messages"; wire-notes §3.2), on an event socket: `text.delta` pieces then `text.done` go out,
 * `audio.delta` chunks come back until `audio.done`; the connection stays open for the next
 * utterance. An utterance is an async iterator of chunks ending with one `end` event that says
 * how it finished; audio already received is the caller's whatever happens after it.
 */
import { TTS_LIMITS, parseTtsServerMessage, ttsQueryProblem, type AudioTimestamps, type TtsServerMessage, type TtsStreamQuery } from '../../shared/wire/tts';
import { wsErrorCode, wsErrorText } from '../../shared/wire/ws-message';
import type { ApiClient } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { openEventSocket, type CapturedFrame, type EventSocket, type SocketClosed, type SocketLimits } from './event-socket';
import { ttsAudioHint, TTS_PATH } from './tts';

export interface SpeechStreamOptions {
  signal?: AbortSignal;
  /** Every frame both ways (masked, audio summarised): the inspector and the recorder. */
  onFrame?: (frame: CapturedFrame) => void;
  limits?: Partial<SocketLimits>;
  now?: () => number;
}

/** One chunk of audio, in the codec and sample rate of the query. */
export interface SpeechChunk {
  kind: 'audio';
  index: number;
  audio: Buffer;
  /** With `with_timestamps`: the characters this chunk speaks and their times. */
  timestamps: AudioTimestamps | null;
  /** Seconds of audio in this chunk, when the service says. */
  duration: number | null;
  /** Socket clock (ms) when it arrived. */
  at: number;
}

/** How an utterance finished. `error` null and `traceId` from `audio.done` when it completed. */
export interface SpeechEnd {
  kind: 'end';
  ok: boolean;
  error: ApiError | null;
  traceId: string | null;
  chunks: number;
  bytes: number;
  /** Messages the service sent that could not be read (each skipped): reported, not fatal. */
  problems: ApiError[];
  /**
   * Socket clock (ms) when the first `text.delta` and the `text.done` were handed to the socket,
   * the first audio arrived and the end came: time to first audio is `firstAudioAt - textDoneAt`
   * (or from the first delta). Null for what did not happen.
   */
  timing: { firstDeltaAt: number | null; textDoneAt: number | null; firstAudioAt: number | null; endAt: number };
}

export type SpeechEvent = SpeechChunk | SpeechEnd;

export type SpeechStreamResult = { ok: true; stream: SpeechStream } | { ok: false; error: ApiError; captured: import('../../shared/contract/runs').CapturedRequest };

/** Opens the socket with the query (voice, language, codec, …; booleans as `true`/`false`); a query breaking a documented rule is refused before connecting. */
export async function openSpeechStream(client: ApiClient, query: TtsStreamQuery, opts: SpeechStreamOptions = {}): Promise<SpeechStreamResult> {
  const problem = ttsQueryProblem(query);
  if (problem) return { ok: false, error: invalidRequestError(problem), captured: client.webSocketTarget(TTS_PATH, { ...query }).captured };
  const result = await openEventSocket<TtsServerMessage>(client, TTS_PATH, {
    query: { ...query },
    signal: opts.signal,
    parse: parseTtsServerMessage,
    onFrame: opts.onFrame,
    limits: opts.limits,
    now: opts.now,
    audio: { in: ttsAudioHint(query.codec, query.sample_rate, query.bit_rate) },
  });
  if (!result.ok) return result;
  return { ok: true, stream: new SpeechStream(result.socket) };
}

/** Splits a piece longer than the per-delta limit on a code-point boundary. */
function pieces(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + max);
    // Never cut a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

export class SpeechStream {
  private busy = false;
  /** Utterances a caller stopped reading before their end: their remaining messages are skipped. */
  private abandoned = 0;

  constructor(readonly socket: EventSocket<TtsServerMessage>) {}

  get closed(): Promise<SocketClosed> {
    return this.socket.closed;
  }

  /**
   * One utterance: sends `text` (a string or pieces arriving over time, each split at 60,000
   * characters) as `text.delta`s then `text.done`, and yields the audio chunks as they come,
   * then one `end`. A service `error`, a failed send or a closed socket ends it with `ok: false`;
   * the chunks already yielded are the partial audio. One utterance at a time per stream.
   */
  async *speak(text: string | Iterable<string> | AsyncIterable<string>): AsyncGenerator<SpeechEvent, void, undefined> {
    const problems: ApiError[] = [];
    let chunks = 0;
    let bytes = 0;
    const timing = { firstDeltaAt: null as number | null, textDoneAt: null as number | null, firstAudioAt: null as number | null };
    const end = (error: ApiError | null, traceId: string | null = null): SpeechEnd => ({ kind: 'end', ok: error === null, error, traceId, chunks, bytes, problems, timing: { ...timing, endAt: this.socket.clock() } });
    if (this.busy) {
      yield end({ kind: 'invalid_request', status: null, code: null, message: 'An utterance is already being spoken on this stream; wait for its end.', requestId: null });
      return;
    }
    this.busy = true;
    let finished = false;
    let sendError: ApiError | null = null;
    const sending = (async () => {
      const source = typeof text === 'string' ? [text] : text;
      for await (const piece of source) {
        for (const delta of pieces(piece, TTS_LIMITS.maxDeltaChars)) {
          if (delta === '') continue;
          const sent = await this.socket.sendJson({ type: 'text.delta', delta });
          if (!sent.ok) return (sendError = sent.error);
          timing.firstDeltaAt ??= this.socket.clock();
        }
      }
      const done = await this.socket.sendJson({ type: 'text.done' });
      if (!done.ok) sendError = done.error;
      else timing.textDoneAt = this.socket.clock();
      return null;
    })();
    try {
      for (;;) {
        const event = await this.socket.next();
        if (event !== null && event.kind === 'message' && this.abandoned > 0) {
          // The rest of an utterance nobody reads any more: up to its end.
          if (event.message.type === 'audio.done' || event.message.type === 'error') this.abandoned--;
          continue;
        }
        if (event === null) {
          finished = true;
          await sending;
          const closed = await this.socket.closed;
          const said = `The connection closed before the speech was complete (after ${chunks} audio chunk${chunks === 1 ? '' : 's'}); the audio received is kept.`;
          const error: ApiError = closed.error
            ? { ...closed.error, message: `${closed.error.message} ${said}` }
            : { kind: 'stream_incomplete', status: null, code: null, message: sendError ? `${(sendError as ApiError).message} ${said}` : said, requestId: null };
          yield end(error);
          return;
        }
        if (event.kind === 'invalid') {
          problems.push(event.error);
          continue;
        }
        if (event.kind === 'binary') {
          problems.push({ kind: 'protocol', status: null, code: 'unexpected_binary', message: `The service sent a binary frame of ${event.bytes.byteLength} bytes; speech comes as audio.delta messages, so it was skipped.`, requestId: null });
          continue;
        }
        if (event.kind === 'unknown') continue;
        const m = event.message;
        if (m.type === 'audio.delta') {
          const audio = Buffer.from(m.delta, 'base64');
          chunks++;
          bytes += audio.byteLength;
          timing.firstAudioAt ??= event.at;
          yield { kind: 'audio', index: chunks - 1, audio, timestamps: m.audio_timestamps ?? null, duration: m.audio_duration ?? null, at: event.at };
        } else if (m.type === 'audio.done') {
          finished = true;
          await sending;
          yield end(sendError, m.trace_id ?? null);
          return;
        } else if (m.type === 'error') {
          finished = true;
          const code = wsErrorCode(m);
          const said = wsErrorText(m) ?? 'no details given';
          yield end({ kind: 'http', status: null, code, message: `The service could not synthesise the speech: ${said.replace(/\.$/, '')}.${chunks > 0 ? ` The ${chunks} audio chunk${chunks === 1 ? '' : 's'} received before are kept.` : ''}`, requestId: null });
          return;
        }
      }
    } finally {
      if (!finished) this.abandoned++;
      this.busy = false;
    }
  }

  /** Closes the connection (normally) and waits for it. */
  close(): Promise<SocketClosed> {
    return this.socket.close();
  }
}

/**
 * Live transcription over the WebSocket `/v1/stt` (spec "Streaming speech-to-text messages";
 * wire-notes §4.2), on an event socket: binary audio frames in the query's encoding go out,
 * transcript events come back. Opening waits for `transcript.created` (audio sent before it may be
 * lost). Events are read as an async iterator that ends with one `end` event saying how the
 * session finished: after `audio.done`, one `transcript.done` per channel then the close is a
 * normal end; a close before that is `stream_incomplete` (the transcript so far is the caller's).
 */
import type { CapturedRequest } from '../../shared/contract/runs';
import { STT_LIMITS, parseSttServerMessage, sttChannelOf, sttStreamQueryProblem, sttPartialState, type SttDone, type SttPartial, type SttServerMessage, type SttStreamQuery } from '../../shared/wire/stt';
import type { UnknownMessage } from '../../shared/wire/ws-message';
import { wsErrorCode, wsErrorText } from '../../shared/wire/ws-message';
import type { ApiClient } from './client';
import { invalidRequestError, type ApiError } from './errors';
import { openEventSocket, type CapturedFrame, type EventSocket, type SendResult, type SocketClosed, type SocketEvent, type SocketLimits } from './event-socket';
import type { AudioFormatHint } from './socket-capture';

export const STT_STREAM_PATH = '/v1/stt';

export interface TranscriptionStreamOptions {
  signal?: AbortSignal;
  onFrame?: (frame: CapturedFrame) => void;
  limits?: Partial<SocketLimits>;
  now?: () => number;
  /** How long to wait for `transcript.created`; default 10 s. */
  readyTimeoutMs?: number;
}

export type TranscriptEvent =
  | { kind: 'partial'; message: SttPartial; state: 'interim' | 'chunk_final' | 'utterance_final'; channel: number; at: number }
  | { kind: 'done'; message: SttDone; channel: number; at: number }
  /** The service's `error` message (most close the session; a parse error of ours keeps it open). */
  | { kind: 'error'; error: ApiError; at: number }
  /** A message that could not be read (skipped), or of a type not known (kept). */
  | { kind: 'invalid'; error: ApiError; at: number }
  | { kind: 'unknown'; message: UnknownMessage; at: number }
  | { kind: 'end'; ok: boolean; error: ApiError | null; channelsDone: number[] };

export type TranscriptionStreamResult = { ok: true; stream: TranscriptionStream; captured: CapturedRequest } | { ok: false; error: ApiError; captured: CapturedRequest };

function audioHint(query: SttStreamQuery): AudioFormatHint {
  const encoding = query.encoding ?? STT_LIMITS.encodingDefault;
  return { codec: encoding, sampleRate: query.sample_rate ?? STT_LIMITS.sampleRateDefault, channels: query.multichannel ? (query.channels ?? 1) : 1 };
}

/**
 * Opens the socket with the query (repeated `keyterm`; booleans as `true`/`false`) and waits until
 * the service is ready; a query breaking a rule of the spec's table is refused before connecting.
 */
export async function openTranscriptionStream(client: ApiClient, query: SttStreamQuery, opts: TranscriptionStreamOptions = {}): Promise<TranscriptionStreamResult> {
  const problem = sttStreamQueryProblem(query);
  if (problem) return { ok: false, error: invalidRequestError(problem), captured: client.webSocketTarget(STT_STREAM_PATH, { ...query }).captured };
  const opened = await openEventSocket<SttServerMessage>(client, STT_STREAM_PATH, {
    query: { ...query },
    signal: opts.signal,
    parse: parseSttServerMessage,
    onFrame: opts.onFrame,
    limits: opts.limits,
    now: opts.now,
    audio: { out: audioHint(query) },
  });
  if (!opened.ok) return opened;
  const { socket, captured } = opened;
  const readyMs = opts.readyTimeoutMs ?? 10_000;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), readyMs)));
  const early: Array<SocketEvent<SttServerMessage>> = [];
  try {
    for (;;) {
      const event = await Promise.race([socket.next(), timeout]);
      if (event === 'timeout') {
        socket.terminate();
        return { ok: false, error: { kind: 'timeout', status: null, code: null, message: `The transcription service did not say it was ready (transcript.created) within ${readyMs / 1000} s; the connection was closed.`, requestId: null }, captured };
      }
      if (event === null) {
        const closed = await socket.closed;
        return { ok: false, error: closed.error ?? { kind: 'stream_incomplete', status: null, code: null, message: 'The transcription service closed the connection before it was ready.', requestId: null }, captured };
      }
      if (event.kind === 'message' && event.message.type === 'transcript.created') break;
      if (event.kind === 'message' && event.message.type === 'error') {
        await socket.close();
        return { ok: false, error: serviceError(event.message, 'The transcription could not start'), captured };
      }
      // Anything else before the ready message is kept for the reader.
      early.push(event);
    }
  } finally {
    if (timer) clearTimeout(timer);
  }
  return { ok: true, stream: new TranscriptionStream(socket, query, early), captured };
}

function serviceError(m: { message?: unknown; error?: unknown; code?: unknown }, what: string): ApiError {
  return { kind: 'http', status: null, code: wsErrorCode(m), message: `${what}: ${(wsErrorText(m) ?? 'no details given').replace(/\.$/, '')}.`, requestId: null };
}

export class TranscriptionStream {
  private ended = false;
  private readonly channelsDone: number[] = [];

  constructor(
    readonly socket: EventSocket<SttServerMessage>,
    private readonly query: SttStreamQuery,
    private readonly early: Array<SocketEvent<SttServerMessage>>,
  ) {}

  get closed(): Promise<SocketClosed> {
    return this.socket.closed;
  }

  /** One binary frame of audio (about 100 ms; with opus exactly one packet). */
  sendAudio(bytes: Uint8Array): Promise<SendResult> {
    return this.socket.sendBinary(bytes);
  }

  /** Forces the current utterance final (`speech_final`), for one channel or all. */
  finalize(channel?: number): Promise<SendResult> {
    return this.socket.sendJson(channel === undefined ? { type: 'finalize' } : { type: 'finalize', channel });
  }

  /** No more audio: the service flushes, sends `transcript.done` per channel, and closes. */
  end(): Promise<SendResult> {
    this.ended = true;
    return this.socket.sendJson({ type: 'audio.done' });
  }

  /** Closes at once (the transcript so far is kept by the caller). */
  close(): Promise<SocketClosed> {
    return this.socket.close();
  }

  /** The session's events in order, then one `end`. Read by one consumer. */
  async *events(): AsyncGenerator<TranscriptEvent, void, undefined> {
    for (;;) {
      const event = this.early.shift() ?? (await this.socket.next());
      if (event === null) {
        yield await this.finish();
        return;
      }
      const out = this.translate(event);
      if (out) yield out;
    }
  }

  private translate(event: SocketEvent<SttServerMessage>): TranscriptEvent | null {
    const at = event.at;
    if (event.kind === 'invalid') return { kind: 'invalid', error: event.error, at };
    if (event.kind === 'unknown') return { kind: 'unknown', message: event.message, at };
    if (event.kind === 'binary') {
      return { kind: 'invalid', error: { kind: 'protocol', status: null, code: 'unexpected_binary', message: `The service sent a binary frame of ${event.bytes.byteLength} bytes; transcripts come as JSON messages, so it was skipped.`, requestId: null }, at };
    }
    const m = event.message;
    switch (m.type) {
      case 'transcript.partial':
        return { kind: 'partial', message: m, state: sttPartialState(m), channel: sttChannelOf(m), at };
      case 'transcript.done': {
        const channel = sttChannelOf(m);
        if (!this.channelsDone.includes(channel)) this.channelsDone.push(channel);
        return { kind: 'done', message: m, channel, at };
      }
      case 'error':
        return { kind: 'error', error: serviceError(m, 'The transcription service reported an error'), at };
      default:
        return null;
    }
  }

  /** The end: normal only when every channel's `transcript.done` came after `audio.done`. */
  private async finish(): Promise<TranscriptEvent> {
    const closed = await this.socket.closed;
    const channels = this.query.multichannel ? (this.query.channels ?? 1) : 1;
    const complete = this.ended && this.channelsDone.length >= channels;
    let error = closed.error;
    if (!error && !complete) {
      error = {
        kind: 'stream_incomplete',
        status: null,
        code: null,
        message: this.ended
          ? `The connection closed before the final transcript of every channel arrived (${this.channelsDone.length} of ${channels}); the transcript so far is kept.`
          : 'The connection closed while audio was still being sent; the transcript so far is kept.',
        requestId: null,
      };
    }
    return { kind: 'end', ok: error === null, error, channelsDone: [...this.channelsDone] };
  }
}

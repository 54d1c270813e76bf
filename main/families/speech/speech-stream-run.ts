/**
 * `speech.stream`: one utterance over the WebSocket `/v1/tts`. Each `audio.delta` reaches the page
 * at once as bytes (it starts playing on the first), with the time to first audio measured on the
 * socket's clock from `text.done` (the whole text is sent at once, so that is when the service has
 * all of it). Every frame both ways (audio summarised, key masked) is recorded as the run's
 * events; the whole audio is kept in the gallery at the end. A socket that closes, or a service
 * error, mid-utterance keeps the audio received and marks the result partial.
 */
import { performance } from 'node:perf_hooks';
import { toWorkbenchError } from '../../api/errors';
import type { CapturedFrame } from '../../api/event-socket';
import { TTS_PATH } from '../../api/tts';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { SpeechFields, SpeechRunResult } from '../../../shared/families/speech/contract';
import type { TtsStreamQuery } from '../../../shared/wire/tts';
import { keepSpeech, TimestampJoin } from './speech-audio';
import { openNativePlay, type NativePlay } from './speech-output';
import { speechOutput } from './speech-record';
import { explainSpeechError, streamedContentType } from './speech-errors';
import type { SpeechRunContext, SpeechService } from './speech-service';

export function streamQueryOf(f: SpeechFields): TtsStreamQuery {
  return {
    language: f.language,
    voice: f.voice,
    codec: f.codec,
    sample_rate: f.sampleRate,
    ...(f.bitRate !== undefined ? { bit_rate: f.bitRate } : {}),
    speed: f.speed,
    with_timestamps: f.withTimestamps,
    ...(f.textNormalization !== undefined ? { text_normalization: f.textNormalization } : {}),
    ...(f.optimizeStreamingLatency !== undefined ? { optimize_streaming_latency: f.optimizeStreamingLatency } : {}),
  };
}

export async function runSpeechStream(service: SpeechService, input: SpeechFields, ctx: SpeechRunContext): Promise<SpeechRunResult> {
  const connection = service.deps.connections.resolve(input.connectionId);
  const query = streamQueryOf(input);
  const startedAt = service.now();
  const t0 = performance.now();
  const request = { ...connection.client.webSocketTarget(TTS_PATH, { ...query }).captured, body: { text: input.text } };
  const recorder = service.start('speech.stream', input, connection, request, startedAt);
  ctx.emit({ type: 'started', runId: recorder.id });
  // When the text went out, on the socket's clock (the frames say): the start of time to first audio.
  const sent = { firstDeltaAt: null as number | null, textDoneAt: null as number | null };
  const onFrame = (f: CapturedFrame): void => {
    if (f.direction === 'out' && f.kind === 'json') {
      if (f.type === 'text.delta') sent.firstDeltaAt ??= f.at;
      else if (f.type === 'text.done') sent.textDoneAt ??= f.at;
    }
    const t = Math.round(f.at - t0);
    if (f.kind === 'json') recorder.event({ t, direction: f.direction, kind: 'json', ...(f.type ? { event: f.type } : {}), data: JSON.stringify(f.data) });
    else if (f.kind === 'text') recorder.event({ t, direction: f.direction, kind: 'text', data: f.text });
    else recorder.event({ t, direction: f.direction, kind: 'binary', data: JSON.stringify({ $audio: f.audio }) });
  };
  let finished = false;
  // Native output: the device opens before the socket, so the first delta plays the moment it comes.
  let native: NativePlay | null = null;
  let nativeError: string | null = null;
  if (input.output) {
    const opened = await openNativePlay(service.deps.media, { codec: input.codec, sampleRate: input.sampleRate, device: input.output.device }, ctx.signal, ctx.emit);
    if (opened.ok) native = opened.value;
    else nativeError = opened.error.message;
  }
  const fail = (error: import('../../../shared/contract/errors').WorkbenchError, status: 'error' | 'cancelled' = 'error'): never => {
    finished = true;
    recorder.finish({ status, error: status === 'cancelled' ? null : error, outputPreview: status === 'cancelled' ? 'Cancelled.' : '', timings: { startedAt, ttfbMs: null, totalMs: service.now() - startedAt } });
    throw new WorkbenchFailure(error);
  };
  try {
    const opened = await service.api.stream.openSpeechStream(connection.client, query, { signal: ctx.signal, onFrame, now: () => performance.now() });
    if (!opened.ok) {
      if (opened.error.kind === 'cancelled' || ctx.signal.aborted) fail({ code: 'cancelled', message: 'The speech stream was cancelled before it opened.' }, 'cancelled');
      return fail(explainSpeechError(opened.error, input.voice));
    }
    const { stream } = opened;
    const onAbort = (): void => void stream.close();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const parts: Uint8Array[] = [];
    const stamps = new TimestampJoin();
    let duration = 0;
    let anyDuration = false;
    let firstAudioMs: number | null = null;
    let ttfbMs: number | null = null;
    let end: import('../../api/tts-stream').SpeechEnd | null = null;
    try {
      for await (const event of stream.speak(input.text)) {
        if (event.kind === 'end') {
          end = event;
          break;
        }
        parts.push(event.audio);
        native?.push(event.audio);
        stamps.add(event.timestamps, event.duration);
        if (event.duration !== null) {
          duration += event.duration;
          anyDuration = true;
        }
        if (event.index === 0) {
          ttfbMs = Math.round(event.at - t0);
          const { textDoneAt, firstDeltaAt } = sent;
          const from = textDoneAt !== null && textDoneAt <= event.at ? 'text.done' : firstDeltaAt !== null ? 'text.delta' : 'start';
          const since = from === 'text.done' ? textDoneAt! : from === 'text.delta' ? firstDeltaAt! : t0;
          firstAudioMs = Math.round((event.at - since) * 10) / 10;
          ctx.emit({ type: 'first-audio', ms: firstAudioMs, from });
        }
        ctx.emit({ type: 'audio', index: event.index, audio: new Uint8Array(event.audio), timestamps: event.timestamps, duration: event.duration, atMs: Math.round(event.at - t0) });
      }
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      await stream.close();
    }
    const audioBytes = parts.reduce((n, p) => n + p.byteLength, 0);
    if (ctx.signal.aborted && audioBytes === 0) fail({ code: 'cancelled', message: 'The speech stream was cancelled before any audio arrived.' }, 'cancelled');
    if (end && !end.ok && audioBytes === 0) fail(explainSpeechError(end.error!, input.voice));
    const problem = ctx.signal.aborted ? 'Stopped by you before the speech was complete; the audio received is kept.' : end?.ok === false ? end.error!.message : end ? null : 'The stream ended without audio.done; the audio received is kept.';
    const whole = Buffer.concat(parts);
    const audio = await keepSpeech(service.deps.gallery, whole, { codec: input.codec, sampleRate: input.sampleRate, text: input.text, voice: input.voice, runId: recorder.id, duration: anyDuration ? duration : null });
    const totalMs = service.now() - startedAt;
    const result: SpeechRunResult = {
      runId: recorder.id,
      audio,
      codec: input.codec,
      contentType: streamedContentType(input.codec),
      duration: anyDuration ? Math.round(duration * 1000) / 1000 : (audio?.duration ?? null),
      timestamps: stamps.result(),
      form: 'stream',
      partial: problem ? { message: problem } : null,
      timings: { totalMs, ttfbMs, firstAudioMs },
      costTicks: null,
      traceId: end?.traceId ?? null,
    };
    finished = true;
    recorder.finish({
      status: problem ? (ctx.signal.aborted ? 'cancelled' : 'incomplete') : 'completed',
      error: problem && !ctx.signal.aborted ? (end?.error ? { ...toWorkbenchError(end.error), message: problem } : { code: 'stream_incomplete', message: problem }) : null,
      output: speechOutput(result, audioBytes),
      outputText: input.text,
      outputPreview: `${parts.length} chunk${parts.length === 1 ? '' : 's'}${firstAudioMs !== null ? ` · first audio ${Math.round(firstAudioMs)} ms` : ''}${problem ? ' · partial' : ''}`,
      timings: { startedAt, ttfbMs, totalMs },
      costTicks: null,
    });
    // The run is recorded; the call lasts while the device plays what came (Stop cancels it).
    if (native) result.played = await native.finish();
    else if (nativeError) result.played = { ms: 0, stopped: false, error: nativeError };
    return result;
  } catch (error) {
    void native?.finish(); // what arrived before the failure plays out
    if (!finished) {
      const failure = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: error instanceof Error ? error.message : String(error) };
      recorder.finish({ status: 'error', error: failure, timings: { startedAt, ttfbMs: null, totalMs: service.now() - startedAt } });
    }
    throw error;
  }
}

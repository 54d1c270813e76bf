/**
 * Text to speech: `speech.synthesize` (REST `POST /v1/tts`), `speech.stream` (the WebSocket,
 * speech-stream-run.ts), `speech.voices` and `speech.ofRun`. Each request is a History run
 * recorded before it leaves; its audio is kept in the gallery (blob store) and reaches the page
 * by URL, never as base64 through the contract. The spec prices no text to speech: cost is null.
 */
import * as ttsApi from '../../api/tts';
import * as ttsStreamApi from '../../api/tts-stream';
import * as voicesApi from '../../api/voices';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { SpeechFields, SpeechRunChunk, SpeechRunResult, SpeechVoice, SpeechVoices } from '../../../shared/families/speech/contract';
import type { TtsRequest } from '../../../shared/wire/tts';
import { PRESET_VOICES } from '../../../shared/wire/voices';
import type { Db } from '../../store/db';
import { getRun } from '../../store/runs';
import type { ResolvedConnection } from '../../services/connections-service';
import type { GalleryService } from '../../services/gallery-service';
import { newRunId, RunRecorder } from '../../services/run-recorder';
import { keepSpeech } from './speech-audio';
import { explainSpeechError } from './speech-errors';
import { playWhole, type SpeechOutputMedia } from './speech-output';
import { readSpeechOutput, speechOutput } from './speech-record';
import { runSpeechStream } from './speech-stream-run';

export interface SpeechRunContext {
  signal: AbortSignal;
  emit(chunk: SpeechRunChunk): void;
}

export interface SpeechServiceDeps {
  db: Db;
  connections: { resolve(id?: string): ResolvedConnection };
  gallery: Pick<GalleryService, 'add' | 'get'>;
  /** The media process (native output); absent, a run asking for it says so in `played.error`. */
  media?: SpeechOutputMedia;
  api?: { tts: Pick<typeof ttsApi, 'synthesize' | 'listBuiltInVoices'>; stream: Pick<typeof ttsStreamApi, 'openSpeechStream'>; voices: Pick<typeof voicesApi, 'listCustomVoices'> };
  now?: () => number;
}

/** The wire body of a REST request. */
export function ttsRequestOf(f: SpeechFields): TtsRequest {
  return {
    text: f.text,
    language: f.language,
    voice_id: f.voice,
    output_format: { codec: f.codec, sample_rate: f.sampleRate, ...(f.bitRate !== undefined ? { bit_rate: f.bitRate } : {}) },
    speed: f.speed,
    with_timestamps: f.withTimestamps,
    ...(f.textNormalization !== undefined ? { text_normalization: f.textNormalization } : {}),
    ...(f.optimizeStreamingLatency !== undefined ? { optimize_streaming_latency: f.optimizeStreamingLatency } : {}),
  };
}

export class SpeechService {
  readonly api: NonNullable<SpeechServiceDeps['api']>;
  readonly now: () => number;

  constructor(readonly deps: SpeechServiceDeps) {
    this.api = deps.api ?? { tts: ttsApi, stream: ttsStreamApi, voices: voicesApi };
    this.now = deps.now ?? Date.now;
  }

  /** `POST /v1/tts`; the audio kept in the gallery, the run in History. */
  async synthesize(input: SpeechFields, ctx: SpeechRunContext): Promise<SpeechRunResult> {
    const connection = this.deps.connections.resolve(input.connectionId);
    const body = ttsRequestOf(input);
    const startedAt = this.now();
    const request = connection.client.describe({ method: 'POST', path: ttsApi.TTS_PATH, body });
    const recorder = this.start('speech.synthesize', input, connection, request, startedAt);
    ctx.emit({ type: 'started', runId: recorder.id });
    let finished = false;
    try {
      const result = await this.api.tts.synthesize(connection.client, body, { signal: ctx.signal });
      const timings = { startedAt, ttfbMs: result.meta?.ttfbMs ?? null, totalMs: this.now() - startedAt };
      if (!result.ok) {
        const cancelled = result.error.kind === 'cancelled' || ctx.signal.aborted;
        const error = cancelled ? { code: 'cancelled' as const, message: 'The speech request was cancelled; nothing was kept.' } : explainSpeechError(result.error, input.voice);
        finished = true;
        recorder.finish(connection.client.scrubber.value({
          status: cancelled ? 'cancelled' : 'error',
          response: result.meta ? { status: result.meta.status, headers: result.meta.headers, body: result.error.body ?? null } : null,
          error: cancelled ? null : error,
          outputPreview: cancelled ? 'Cancelled before the service answered.' : '',
          timings,
          retries: result.retries,
        }));
        throw new WorkbenchFailure(error);
      }
      const speech = result.value;
      const audio = await keepSpeech(this.deps.gallery, speech.audio, { codec: speech.codec, sampleRate: input.sampleRate, text: input.text, voice: input.voice, runId: recorder.id, duration: speech.duration });
      const out: SpeechRunResult = {
        runId: recorder.id,
        audio,
        codec: speech.codec,
        contentType: speech.contentType,
        duration: speech.duration,
        timestamps: speech.timestamps,
        form: speech.form,
        partial: null,
        timings: { totalMs: this.now() - startedAt, ttfbMs: timings.ttfbMs, firstAudioMs: null },
        costTicks: null,
        traceId: speech.traceId,
      };
      finished = true;
      recorder.finish({
        status: 'completed',
        // The answer as recorded: its fields without the audio (that is the gallery item).
        response: { status: result.meta.status, headers: result.meta.headers, body: { content_type: speech.contentType, duration: speech.duration, audio: `<${speech.audio.byteLength} bytes of audio: gallery item ${audio?.id ?? 'none'}>`, ...(speech.timestamps ? { audio_timestamps: speech.timestamps } : {}) } },
        output: speechOutput(out, speech.audio.byteLength),
        outputText: input.text,
        outputPreview: `${speech.duration !== null ? `${speech.duration.toFixed(1)} s` : 'audio'} · ${input.voice}`,
        timings: { ...timings, totalMs: out.timings.totalMs },
        costTicks: null,
        retries: result.retries,
      });
      // Native output: the run is recorded; the call lasts while the device plays (Stop cancels it).
      if (input.output) out.played = await playWhole(this.deps.media, { codec: speech.codec ?? input.codec, sampleRate: input.sampleRate, device: input.output.device }, speech.audio, ctx.signal, ctx.emit);
      return out;
    } catch (error) {
      if (!finished) {
        const failure = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: error instanceof Error ? error.message : String(error) };
        recorder.finish({ status: 'error', error: failure, timings: { startedAt, ttfbMs: null, totalMs: this.now() - startedAt } });
      }
      throw error;
    }
  }

  /** The WebSocket `/v1/tts`: chunks to the page as they come, the whole utterance kept at the end. */
  stream(input: SpeechFields, ctx: SpeechRunContext): Promise<SpeechRunResult> {
    return runSpeechStream(this, input, ctx);
  }

  /** Built-in voices (the service's list, else the spec's five) and the custom ones (first 1,000). */
  async voices(input: { connectionId?: string }): Promise<SpeechVoices> {
    const { client } = this.deps.connections.resolve(input.connectionId);
    const [builtIn, custom] = await Promise.all([this.api.tts.listBuiltInVoices(client), this.api.voices.listCustomVoices(client, { limit: 1000 })]);
    const voices: SpeechVoice[] = builtIn.ok
      ? builtIn.value.voices.map((v) => ({ id: v.voice_id, name: v.name ?? v.voice_id, kind: 'built-in' as const, language: v.language ?? null }))
      : PRESET_VOICES.map((v) => ({ id: v.id, name: v.name, kind: 'built-in' as const, language: null }));
    if (custom.ok) for (const v of custom.value.voices) voices.push({ id: v.voice_id, name: v.name ?? v.voice_id, kind: 'custom', language: typeof v.language === 'string' ? v.language : null });
    return { voices, customError: custom.ok ? null : `Your custom voices could not be listed: ${custom.error.message}` };
  }

  /** A run's result again (History, a reload). */
  async ofRun({ runId }: { runId: string }): Promise<SpeechRunResult | null> {
    const run = getRun(this.deps.db, runId);
    if (!run || (run.endpoint !== 'speech.synthesize' && run.endpoint !== 'speech.stream')) return null;
    const output = readSpeechOutput(run.output);
    if (!output) return null;
    const audio = output.galleryId ? await this.deps.gallery.get(output.galleryId).catch(() => null) : null;
    return { ...output.result, runId, audio };
  }

  start(endpoint: 'speech.synthesize' | 'speech.stream', input: SpeechFields, connection: ResolvedConnection, request: CapturedRequest, startedAt: number): RunRecorder {
    return RunRecorder.start(
      this.deps.db,
      {
        id: newRunId(),
        createdAt: startedAt,
        endpoint,
        model: input.voice,
        connectionId: connection.profile.id,
        connectionName: connection.profile.name,
        isSandbox: connection.isSandbox,
        request,
        promptText: input.text,
        promptPreview: input.text,
        status: 'pending',
      },
      this.now,
      undefined,
      connection.client.scrubber,
    );
  }
}

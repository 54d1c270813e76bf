/**
 * The `transcription` live kind: a live microphone transcribed over the service's WebSocket
 * `/v1/stt`, owned by main so that it outlives the window that started it.
 *
 * Main keeps control, the transcript so far (the snapshot a re-attaching window starts from) and
 * the recording; the audio and the socket run in the media process (main/media's `transcription`
 * session kind), which is handed the connection's base URL and key in its start options — the
 * page never sees them. The page sends microphone frames straight to the media process on the
 * snapshot's `mic` stream (or the media process captures a native device) and reads levels on
 * `levels`; transcript events come up to main, are folded into the snapshot and emitted to
 * every attached window.
 *
 * Recorded through main/services/recording: the microphone as the `out` track (what went to the
 * service, chunk by chunk), the service's JSON messages as `in` events and ours as `out` events,
 * marks `speech_started` (the first words of an utterance), `interim_transcript` (its first
 * interim) and `final_transcript` (its `speech_final`). A socket that closes mid-utterance ends
 * the session with the transcript so far kept and marked incomplete (the run says so).
 *
 * Audio is PCM16, mono or interleaved stereo (`query.channels: 2`, sent as `multichannel` with
 * `channels=2`; the track is recorded stereo and each channel gets its own transcript). Opus is
 * refused with LIVE_OPUS_REFUSAL: the app has no Opus encoder.
 */
import { randomBytes } from 'node:crypto';
import type { WorkbenchError } from '../../shared/contract/errors';
import {
  LIVE_OPUS_REFUSAL,
  LIVE_TRANSCRIPTION_KIND,
  LiveTranscriptionControlSchema,
  LiveTranscriptionInputSchema,
  applyTranscriptionEvent,
  transcriptText,
  type LiveTranscriptOutput,
  type LiveTranscriptionEvent,
  type LiveTranscriptionSnapshot,
  type TranscriptSegment,
} from '../../shared/live-transcription';
import { sttStreamQueryProblem, type SttStreamQuery, type SttWord } from '../../shared/wire/stt';
import type { SecretScrubber } from '../api/secret-scrubber';
import type { MediaPlane, MediaPlaneEvent } from '../media/media-plane';
import type { Recordings } from '../services/recording/recordings';
import type { SessionRecorder } from '../services/recording/session-recorder';
import { defineLiveKind } from './kind';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { Endpoint } from '../../shared/families';

/** What the kind needs from the app (given by main/app.ts; tests give their own). */
export interface TranscriptionKindDeps {
  media: Pick<MediaPlane, 'startSession' | 'stopSession' | 'controlSession' | 'onEvent'>;
  recordings: Pick<Recordings, 'open'>;
  /** The connection to use (the active one without an id): where, with which key. Throws a WorkbenchFailure when it has no key. */
  connection(id?: string): { id: string; name: string; isSandbox: boolean; baseUrl: string; apiKey: string | null; scrubber: SecretScrubber };
  /** A file reference the page holds (UserFiles.resolve): the file source's path. Without it, a file source is refused. */
  resolveFile?(ref: string): { path: string; name: string };
}

/** History's endpoint for live transcription runs (the transcription family lists it: a session entry, the WebSocket loop as its code). */
export const LIVE_TRANSCRIPTION_ENDPOINT: Endpoint = 'transcription.live';

interface MediaTranscriptEvent {
  kind: string;
  state?: 'interim' | 'chunk_final' | 'utterance_final';
  channel?: number;
  message?: { text?: string; words?: SttWord[]; start?: number; duration?: number; speaker?: number | null };
  error?: { message: string };
}

function segmentOf(m: NonNullable<MediaTranscriptEvent['message']>, utterance: boolean): TranscriptSegment {
  return { text: m.text ?? '', start: m.start ?? null, duration: m.duration ?? null, speaker: m.speaker ?? null, words: (m.words ?? []).map((w) => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence ?? null, speaker: w.speaker ?? null })), utterance };
}

/** Seconds → ms: where the utterance that `segments` ends with stops in the audio (its last word, or its segment's end). */
function utteranceEndMs(segments: readonly TranscriptSegment[]): number | null {
  const last = segments.at(-1);
  if (!last) return null;
  const word = last.words.at(-1);
  if (word) return word.end * 1000;
  return last.start !== null && last.duration !== null ? (last.start + last.duration) * 1000 : null;
}

/** The session time at which the audio up to `endMs` had reached main (entries before it are dropped: utterances come in order). */
function capturedAt(heard: Array<{ endMs: number; t: number }>, endMs: number | null): number | null {
  if (endMs === null) return null;
  const i = heard.findIndex((h) => h.endMs >= endMs);
  if (i < 0) return null;
  const { t } = heard[i];
  heard.splice(0, i);
  return t;
}

/**
 * The run's output: every final segment per channel, as History shows the transcript (utterances
 * with their times, speakers and words). A channel with no final but a `transcript.done` text
 * keeps that text as one segment.
 */
function liveTranscriptOutput(finals: ReadonlyMap<number, TranscriptSegment[]>, state: LiveTranscriptionSnapshot): LiveTranscriptOutput {
  const channels = new Set<number>([...finals.keys(), ...state.channels.map((c) => c.channel)]);
  return {
    object: 'live_transcript',
    channels: [...channels]
      .sort((a, b) => a - b)
      .map((channel) => {
        const kept = finals.get(channel);
        if (kept?.length) return { channel, segments: kept };
        const last = state.channels.find((c) => c.channel === channel)?.finals.at(-1);
        return { channel, segments: last ? [last] : [] };
      }),
  };
}

export function transcriptionLiveKind(deps: TranscriptionKindDeps) {
  return defineLiveKind({
    id: LIVE_TRANSCRIPTION_KIND,
    input: LiveTranscriptionInputSchema,
    control: LiveTranscriptionControlSchema,
    async start(ctx) {
      const { input } = ctx;
      if (input.query.encoding === 'opus') throw new WorkbenchFailure({ code: 'invalid_input', message: LIVE_OPUS_REFUSAL });
      const audioChannels = input.query.channels ?? 1;
      // Stereo goes out interleaved with multichannel on: the service transcribes each channel apart.
      const { channels: _channels, ...rest } = input.query;
      const query: SttStreamQuery = { ...rest, encoding: 'pcm', ...(audioChannels > 1 ? { multichannel: true, channels: audioChannels } : {}) };
      const problem = sttStreamQueryProblem(query);
      if (problem) throw new WorkbenchFailure({ code: 'invalid_input', message: problem });
      const connection = deps.connection(input.connectionId);
      // The media process gets a path, never the page's reference; main checks the reference first.
      let mediaSource: { kind: 'page' } | { kind: 'native'; device?: string } | { kind: 'file'; path: string; speed: number } = input.source.kind === 'native' ? input.source : { kind: 'page' };
      let fileName = '';
      if (input.source.kind === 'file') {
        if (!deps.resolveFile) throw new WorkbenchFailure({ code: 'unsupported', message: 'This app cannot play a file as a live microphone.' });
        const file = deps.resolveFile(input.source.ref);
        mediaSource = { kind: 'file', path: file.path, speed: input.source.speed };
        fileName = file.name;
      }
      const mediaId = `stt-${ctx.id}`;
      const runId = `live_${randomBytes(8).toString('hex')}`;
      const state: LiveTranscriptionSnapshot = {
        status: 'connecting',
        source: input.source,
        sampleRate: input.query.sample_rate,
        audioChannels,
        muted: false,
        streams: { mic: -1, levels: -1 },
        channels: [],
        droppedSegments: 0,
        runId,
        end: null,
        errors: [],
      };
      const emit = (event: LiveTranscriptionEvent): void => {
        applyTranscriptionEvent(state, event);
        ctx.emit(event);
      };

      // The media session's events, from the moment it exists (audio may come before start answers).
      let rec: SessionRecorder | null = null;
      let inUtterance = false;
      let interimMarked = false;
      // Every final segment per channel (the snapshot drops the oldest past SNAPSHOT_SEGMENTS_MAX): History's transcript.
      const finals = new Map<number, TranscriptSegment[]>();
      // When each stretch of microphone audio reached main (session clock), so an utterance's
      // end in the audio maps to the moment it was captured: the turn's `speech_stopped`.
      const heard: Array<{ endMs: number; t: number }> = [];
      let endedByMedia: WorkbenchError | null | undefined;
      const onMedia = (e: MediaPlaneEvent): void => {
        if (!('sessionId' in e) || e.sessionId !== mediaId) return;
        if (e.type === 'session-ended') {
          endedByMedia = e.error ?? null;
          const incomplete = inUtterance || e.error !== undefined;
          const why = e.error ? `${e.error.message.replace(/[.\s]*$/, '.')}${/so far is kept/.test(e.error.message) ? '' : ' The transcript so far is kept.'}` : incomplete ? 'The connection closed mid-utterance; the transcript so far is kept.' : null;
          emit({ type: 'status', status: e.error ? 'failed' : 'ended', end: { incomplete, message: why } });
          ctx.end(e.error ? { code: e.error.code === 'timeout' ? 'timeout' : 'network', message: e.error.message } : undefined);
          return;
        }
        try {
          onSessionEvent(e.event, e.data, e.at);
        } catch (error) {
          ctx.log(`[live transcription] ${error instanceof Error ? error.message : String(error)}`);
        }
      };
      const onSessionEvent = (type: string, data: unknown, at: number): void => {
        if (type === 'audio') {
          const { pcm } = data as { pcm: string };
          const ref = rec?.audio('out', Buffer.from(pcm, 'base64'), { frame: { data: '(microphone audio)' } });
          if (ref && rec) heard.push({ endMs: ref.offsetMs + ref.durationMs, t: rec.sessionMs() });
          return;
        }
        if (type === 'socket-frame') {
          const frame = data as { direction: 'in' | 'out'; kind: string; data?: unknown; text?: string };
          if (frame.kind === 'json') rec?.event({ direction: frame.direction, kind: 'json', data: JSON.stringify(frame.data) });
          else if (frame.kind === 'text') rec?.event({ direction: frame.direction, kind: 'text', data: frame.text ?? '' });
          return;
        }
        if (type === 'muted') return emit({ type: 'muted', muted: (data as { muted: boolean }).muted });
        if (type === 'stats') return void ctx.log(`[live transcription] ${ctx.id} stats ${JSON.stringify(data)}`);
        if (type !== 'transcript') return;
        const t = data as MediaTranscriptEvent;
        if (t.kind === 'partial' && t.message) {
          const channel = t.channel ?? 0;
          if (!inUtterance && (t.message.text ?? '').trim()) {
            inUtterance = true;
            rec?.mark('speech_started', { data: { channel } });
          }
          if (t.state === 'interim') {
            if (!interimMarked && inUtterance) {
              interimMarked = true;
              rec?.mark('interim_transcript', { data: { channel } });
            }
            return emit({ type: 'interim', channel, text: t.message.text ?? '' });
          }
          const utterance = t.state === 'utterance_final';
          const segment = segmentOf(t.message, utterance);
          emit({ type: 'final', channel, segment });
          const kept = finals.get(channel) ?? [];
          kept.push(segment);
          finals.set(channel, kept);
          if (utterance) {
            const stoppedAt = capturedAt(heard, utteranceEndMs(kept));
            if (stoppedAt !== null) rec?.mark('speech_stopped', { t: stoppedAt, data: { channel } });
            rec?.mark('final_transcript', { data: { channel, text: transcriptText(state.channels.find((c) => c.channel === channel)!).split('\n').at(-1) } });
            inUtterance = false;
            interimMarked = false;
          }
          return;
        }
        if (t.kind === 'done' && t.message) {
          inUtterance = false;
          return emit({ type: 'done', channel: t.channel ?? 0, text: t.message.text ?? '', duration: t.message.duration ?? 0 });
        }
        if (t.kind === 'error' || t.kind === 'invalid') {
          rec?.mark('error', { data: { message: t.error?.message } });
          return emit({ type: 'error', message: t.error?.message ?? 'The transcription service reported an error.' });
        }
        void at;
      };
      const off = deps.media.onEvent(onMedia);

      const recorder = deps.recordings.open(
        {
          kind: 'transcription',
          run: {
            id: runId,
            createdAt: Date.now(),
            endpoint: LIVE_TRANSCRIPTION_ENDPOINT,
            // No model chosen: left empty, so History names the run "Transcription · Live microphone (page)" as it does a file's.
            model: input.query.model ?? '',
            connectionId: connection.id,
            connectionName: connection.name,
            isSandbox: connection.isSandbox,
            request: { method: 'GET', url: `${connection.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/v1/stt`, headers: {}, body: JSON.stringify(query) },
            promptText: '',
            promptPreview: `${input.source.kind === 'page' ? 'Live microphone (page)' : input.source.kind === 'file' ? `Live file (${fileName})` : `Live microphone (${input.source.device ?? 'default device'})`}${audioChannels > 1 ? ` · ${audioChannels} channels` : ''}`,
          },
        },
        connection.scrubber,
      );
      await recorder.openTrack('out', { sampleRate: input.query.sample_rate, channels: audioChannels, name: 'microphone' });
      rec = recorder;
      const started = await deps.media.startSession(mediaId, 'transcription', {
        connection: { baseUrl: connection.baseUrl, apiKey: connection.apiKey },
        query,
        source: mediaSource,
      });
      if (!started.ok) {
        off();
        await recorder.abort(started.error);
        throw new WorkbenchFailure(started.error);
      }
      state.streams = { mic: started.value.streams.mic, levels: started.value.streams.levels };
      emit({ type: 'status', status: 'listening' });
      ctx.setState('listening');

      return {
        snapshot: () => structuredClone(state),
        async control(message) {
          const reply = await deps.media.controlSession(mediaId, message);
          if (!reply.ok) throw new WorkbenchFailure(reply.error);
        },
        async stop(reason) {
          if (endedByMedia === undefined) {
            emit({ type: 'status', status: 'finishing' });
            await deps.media.stopSession(mediaId);
            const incomplete = inUtterance && reason !== 'stopped';
            emit({ type: 'status', status: 'ended', end: { incomplete, message: incomplete ? 'The session ended mid-utterance; the transcript so far is kept.' : null } });
          }
          off();
          const text = state.channels.map(transcriptText).join('\n\n');
          const output = liveTranscriptOutput(finals, state);
          const update = { outputText: text, outputPreview: text.slice(0, 200), output };
          if (!rec) return;
          if (endedByMedia || reason === 'failed') {
            await rec.abort({ code: endedByMedia?.code ?? 'network', message: state.end?.message ?? endedByMedia?.message ?? 'The live transcription failed.' }, update);
          } else if (state.end?.incomplete) {
            await rec.abort({ code: 'stream_incomplete', message: state.end.message ?? 'The transcription ended mid-utterance.' }, update);
          } else {
            await rec.close(update);
          }
        },
      };
    },
  });
}

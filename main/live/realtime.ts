/**
 * The `realtime` live kind: a realtime voice call (`/v1/realtime`) owned by main, so it outlives
 * the window that started it (a reload, a closed console) and can run with none (a SIP call).
 *
 * Main keeps the conversation (realtime-conversation.ts), the tools (realtime-tools.ts: the
 * auto-responder answers with no window), the snapshot windows attach with
 * (shared/realtime-call) and the recording; the socket, the microphone, the answer's playback and
 * barge-in run in the media process (main/media/realtime-call-session.ts), handed the
 * connection's key (or a client secret minted here) in its start options — never a page.
 *
 * Recorded through main/services/recording (kind `realtime`): the microphone as the `out` track,
 * the model's audio as `in`, every JSON message both ways (audio summarised, our 20 ms appends
 * left out: they are the `out` track), marks speech_started/stopped, first_audio, first_played,
 * barge_in, truncated, response_done, error, reconnected; closed with a stereo mix (microphone
 * left, model right), or aborted with the reason, so History can play it either way.
 *
 * A socket that drops is said at once (status `dropped`, the reason in `lastError`, an error mark)
 * and the call stays: `reconnect` opens a new media session whose first messages seed the
 * conversation back from the transcript. Media times (the media process's clock) are mapped to
 * the session clock by the smallest (arrival − media time) seen, so a busy main does not stretch
 * the marks: latencies are measured where the audio is.
 */
import { randomBytes } from 'node:crypto';
import type { Endpoint } from '../../shared/families';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import {
  REALTIME_CALL_KIND,
  RealtimeCallControlSchema,
  RealtimeCallInputSchema,
  applyRealtimeCallEvent,
  initialRealtimeCallSnapshot,
  realtimeResponseCost,
  realtimeSeedItems,
  realtimeSessionBody,
  realtimeTranscriptText,
  type RealtimeCallEvent,
  type RealtimeCallSnapshot,
} from '../../shared/realtime-call';
import { REALTIME_MODELS } from '../../shared/wire/realtime';
import { ApiClient } from '../api/client';
import { createClientSecret } from '../api/realtime';
import type { MediaPlaneEvent } from '../media/media-plane';
import type { SessionRecorder } from '../services/recording/session-recorder';
import { defineLiveKind } from './kind';
import { RealtimeConversation } from './realtime-conversation';
import { callPrices, type PriceLookup } from './realtime-prices';
import { ToolResponder } from './realtime-tools';
import type { TranscriptionKindDeps } from './transcription';

export type RealtimeKindDeps = TranscriptionKindDeps & {
  /** A model's catalogue prices on a connection (main/app.ts: modelPrices over the models service, shared with recovered calls), for the cost per call; null when unknown. */
  prices?: PriceLookup;
};

/** History's endpoint for realtime calls (the realtime family registers it). */
export const REALTIME_CALL_ENDPOINT: Endpoint = 'realtime.call';

type CapturedJson = { direction: 'in' | 'out'; kind: string; type?: string | null; data?: unknown; text?: string; at?: number };

export function realtimeLiveKind(deps: RealtimeKindDeps) {
  return defineLiveKind({
    id: REALTIME_CALL_KIND,
    input: RealtimeCallInputSchema,
    control: RealtimeCallControlSchema,
    async start(ctx) {
      const { input } = ctx;
      const connection = deps.connection(input.connectionId);
      let fileMic: { kind: 'file'; path: string; speed: number } | null = null;
      if (input.microphone.kind === 'file') {
        if (!deps.resolveFile) throw new WorkbenchFailure({ code: 'unsupported', message: 'This app cannot play a file as a live microphone.' });
        fileMic = { kind: 'file', path: deps.resolveFile(input.microphone.ref).path, speed: input.microphone.speed };
      }
      const runId = `live_${randomBytes(8).toString('hex')}`;
      const state: RealtimeCallSnapshot = initialRealtimeCallSnapshot(input, runId);
      const body = realtimeSessionBody(input, state.formats);
      const emit = (event: RealtimeCallEvent): void => {
        applyRealtimeCallEvent(state, event);
        ctx.emit(event);
      };

      // The socket's query, as connected and as recorded (History's code export reads the model from it).
      const socketQuery: Record<string, string> = {
        ...(input.model && !input.callId ? { model: input.model } : {}),
        ...(input.reasoningEffort ? { 'reasoning.effort': input.reasoningEffort } : {}),
        ...(input.callId ? { call_id: input.callId } : {}),
      };
      const queryText = new URLSearchParams(socketQuery).toString();
      const rec: SessionRecorder = deps.recordings.open(
        {
          kind: 'realtime',
          run: {
            id: runId,
            createdAt: Date.now(),
            endpoint: REALTIME_CALL_ENDPOINT,
            model: input.model ?? '',
            connectionId: connection.id,
            connectionName: connection.name,
            isSandbox: connection.isSandbox,
            request: { method: 'GET', url: `${connection.baseUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/v1/realtime${queryText ? `?${queryText}` : ''}`, headers: {}, body: JSON.stringify({ session: body, ...(input.callId ? { call_id: input.callId } : {}) }) },
            promptText: input.instructions ?? '',
            promptPreview: input.callId ? `SIP call ${input.callId}` : `Realtime call · microphone ${input.microphone.kind} · output ${input.output.kind}`,
          },
        },
        connection.scrubber,
      );
      if (input.microphone.kind !== 'none') await rec.openTrack('out', { sampleRate: state.formats.input.rate, name: 'microphone' });
      await rec.openTrack('in', { sampleRate: state.formats.output.rate, name: 'model' });

      // The model's prices, for the cost of each response (the catalogue is cached; a failure only leaves the cost unknown).
      const prices = callPrices(deps.prices, connection.id, ctx.log);
      await prices.load(input.model ?? REALTIME_MODELS[0]);

      // Media clock -> session clock: the smallest (arrival - media time) seen.
      let offset = Number.POSITIVE_INFINITY;
      const toSession = (at: number): number => (Number.isFinite(offset) ? Math.max(0, at + offset) : rec.sessionMs());
      /** While a service message is folded: when it arrived from the socket (session clock), not when main got to it. */
      let arrivedAt: number | null = null;

      const conversation = new RealtimeConversation({
        emit,
        record: (type, t, turn, data) => rec.mark(type, { t, turn, data }),
        onToolCalls: (calls) => tools.take(calls),
        now: () => arrivedAt ?? rec.sessionMs(),
        autoAnswers: (name) => Boolean(state.autoReplies[name]),
        cost: (usage) => realtimeResponseCost(prices.current, usage),
      });
      /** A tool answered with an error (the auto-responder's injected one, or the window's) is said and marked, as a tool that throws. */
      const toolEmit = (event: RealtimeCallEvent): void => {
        const name = event.type === 'tool-answered' ? (state.pendingToolCalls.find((c) => c.callId === event.callId)?.name ?? 'tool') : '';
        emit(event);
        if (event.type !== 'tool-answered' || !event.error) return;
        const message = `The tool ${name} failed (${event.by === 'auto' ? 'auto-responder' : 'answered from the console'}): ${event.error} The model was given the error as the tool's output.`;
        rec.mark('error', { data: { code: 'tool_error', callId: event.callId, tool: name, message } });
        emit({ type: 'error', code: 'tool_error', message, t: rec.sessionMs() });
      };
      const tools = new ToolResponder({
        send: (event) => send(event),
        emit: toolEmit,
        replies: () => state.autoReplies,
        log: ctx.log,
        failed: (call, message) => {
          rec.mark('error', { data: { code: 'tool_send_failed', callId: call.callId, tool: call.name, message } });
          emit({ type: 'error', code: 'tool_send_failed', message, t: rec.sessionMs() });
        },
      });

      let attempt = 0;
      let mediaId = '';
      let live = false;
      let stopping = false;
      let dropError: WorkbenchError | null = null;
      /** The reason the service gave when it closed the socket cleanly (a SIP call's "The caller hung up."). */
      let closeReason: string | null = null;

      /**
       * Push-to-talk (manual turns, our microphone): the media session sends appends only while
       * the button is held. The window's press is `clear`, its release `commit` (the console's store).
       */
      const pushToTalk = state.turnDetection === 'manual' && input.microphone.kind !== 'none';
      let held = false;
      const send = async (event: Record<string, unknown>): Promise<void> => {
        if (!live) throw new WorkbenchFailure({ code: 'network', message: 'The call is not connected: reconnect first.' });
        const reply = await deps.media.controlSession(mediaId, { type: 'send', event });
        if (!reply.ok) throw new WorkbenchFailure(reply.error);
      };
      const media = async (message: Record<string, unknown>): Promise<unknown> => {
        if (!live) throw new WorkbenchFailure({ code: 'network', message: 'The call is not connected: reconnect first.' });
        const reply = await deps.media.controlSession(mediaId, message);
        if (!reply.ok) throw new WorkbenchFailure(reply.error);
        return reply.value;
      };

      /** One of our messages, as the media session's socket captured it. */
      const onFrame = (frame: CapturedJson): void => {
        if (frame.kind === 'json') rec.event({ direction: frame.direction, kind: 'json', data: JSON.stringify(frame.data) });
        else if (frame.kind === 'text') rec.event({ direction: frame.direction, kind: 'text', data: frame.text ?? '' });
        // When the socket wrote it (media clock), as the marks: a busy main does not move it on the timeline.
        const t = typeof frame.at === 'number' ? toSession(frame.at) : rec.sessionMs();
        emit({ type: 'wire', direction: frame.direction, t, eventType: frame.type ?? '(unknown)', data: frame.kind === 'json' ? frame.data : frame.text });
      };
      /** One message from the service, in order; `t`: when it arrived from the socket (session clock). */
      const onServer = (message: { type: string; session?: { id?: string; model?: string; voice?: string; audio?: { output?: { voice?: string } } } }, t: number): void => {
        rec.event({ direction: 'in', kind: 'json', data: JSON.stringify(message) });
        emit({ type: 'wire', direction: 'in', t, eventType: message.type, data: message });
        if ((message.type === 'session.created' || message.type === 'session.updated') && message.session) {
          const s = message.session;
          // A joined SIP call says its model only here.
          if (s.model) void prices.load(s.model);
          emit({ type: 'connected', sessionId: s.id ?? state.connection.sessionId, model: s.model ?? null, voice: s.audio?.output?.voice ?? s.voice ?? null, connectedAt: state.connection.connectedAt ?? Date.now(), attempt, clientSecretExpiresAt: state.clientSecretExpiresAt });
        }
        conversation.server(message);
      };

      const onMediaEvent = (type: string, data: Record<string, unknown>): void => {
        const at = typeof data.at === 'number' ? data.at : null;
        if (type === 'socket-frame') return onFrame(data as unknown as CapturedJson);
        if (type === 'server' && typeof data.message === 'object' && data.message !== null) {
          arrivedAt = at !== null ? toSession(at) : rec.sessionMs();
          try {
            return onServer(data.message as { type: string }, arrivedAt);
          } finally {
            arrivedAt = null;
          }
        }
        if (type === 'closed') return void (closeReason = typeof data.reason === 'string' && data.reason.trim() !== '' ? data.reason.trim() : null);
        if (type === 'mark' && at !== null) {
          const t = toSession(at);
          const itemId = typeof data.itemId === 'string' ? data.itemId : null;
          const responseId = typeof data.responseId === 'string' ? data.responseId : null;
          if (data.mark === 'speech_started') return conversation.speechStarted(t, itemId);
          if (data.mark === 'speech_stopped') return conversation.speechStopped(t, itemId, typeof data.audioEndMs === 'number' ? data.audioEndMs : null);
          const extra = typeof data.playedMs === 'number' ? { playedMs: data.playedMs } : {};
          return conversation.mark(data.mark as 'first_audio', t, { itemId, responseId }, extra);
        }
        if ((type === 'mic-audio' || type === 'model-audio') && at !== null && typeof data.pcm === 'string') {
          const pcm = Buffer.from(data.pcm, 'base64');
          if (type === 'mic-audio' && input.microphone.kind !== 'none') rec.audio('out', pcm, { atMs: toSession(at), frame: { data: '(microphone audio)' } });
          if (type === 'model-audio') rec.audio('in', pcm, { atMs: toSession(at), frame: { event: 'response.output_audio.delta', data: JSON.stringify({ item_id: data.itemId ?? null }) } });
          return;
        }
        if (type === 'opened') {
          const streams = (data.streams ?? {}) as { mic?: number; levels?: number; playback?: number };
          return emit({ type: 'streams', streams: { mic: streams.mic ?? -1, levels: streams.levels ?? -1, playback: streams.playback ?? -1 } });
        }
        if (type === 'microphone-failed' || type === 'output-failed') {
          rec.mark('error', { data: { message: data.message } });
          return emit({ type: 'error', code: type === 'microphone-failed' ? 'microphone' : 'output', message: String(data.message), t: rec.sessionMs() });
        }
      };

      const onMedia = (e: MediaPlaneEvent): void => {
        if (!('sessionId' in e) || e.sessionId !== mediaId) return;
        if (e.type === 'session-event') {
          offset = Math.min(offset, rec.sessionMs() - e.at);
          try {
            onMediaEvent(e.event, (e.data ?? {}) as Record<string, unknown>);
          } catch (error) {
            ctx.log(`[realtime] ${error instanceof Error ? error.message : String(error)}`);
          }
          return;
        }
        if (e.type !== 'session-ended' || stopping) return;
        live = false;
        if (e.error) {
          // Dropped: said at once; the call (and its recording) stays for a reconnect. A delayed
          // auto-reply cancelled by the drop is said after it (its own mark and event).
          dropError = e.error;
          rec.mark('error', { data: { message: e.error.message, code: e.error.code } });
          emit({ type: 'dropped', code: e.error.code, message: e.error.message, t: rec.sessionMs() });
          ctx.setState('dropped');
          tools.dropped(e.error.message);
          return;
        }
        tools.clear();
        // A clean close from the far side (a SIP caller hung up): the call ended.
        emit({ type: 'status', status: 'ended', message: closeReason ? `The call was ended by the other side: ${closeReason}` : 'The call was ended by the other side.' });
        ctx.end();
      };
      const off = deps.media.onEvent(onMedia);

      /** Opens a socket (a media session); `seed` replays the conversation after a drop. */
      const connect = async (seed: Array<Record<string, unknown>>): Promise<void> => {
        attempt++;
        mediaId = `rt-${ctx.id}-${attempt}`;
        offset = Number.POSITIVE_INFINITY;
        let auth: { kind: 'key' } | { kind: 'client_secret'; secret: string } = { kind: 'key' };
        if (input.auth === 'client-secret') {
          const client = new ApiClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
          const minted = await createClientSecret(client, { ...(input.clientSecretSeconds ? { expires_after: { seconds: input.clientSecretSeconds } } : {}) }, { signal: ctx.signal });
          await client.dispose();
          if (!minted.ok) throw new WorkbenchFailure({ code: 'api_error', message: `The client secret could not be minted: ${minted.error.message}` });
          auth = { kind: 'client_secret', secret: minted.value.value };
          state.clientSecretExpiresAt = minted.value.expires_at;
        }
        state.connection.connectedAt = Date.now();
        const started = await deps.media.startSession(mediaId, 'realtime-call', {
          connection: { baseUrl: connection.baseUrl, apiKey: connection.apiKey },
          auth,
          query: socketQuery,
          session: body,
          seed,
          formats: state.formats,
          microphone: fileMic ?? (input.microphone.kind === 'native' ? { kind: 'native', ...(input.microphone.device ? { device: input.microphone.device } : {}) } : { kind: input.microphone.kind === 'page' ? 'page' : 'none' }),
          output: input.output.kind === 'native' ? { kind: 'native', ...(input.output.device ? { device: input.output.device } : {}) } : { kind: input.output.kind },
          ...(pushToTalk ? { pushToTalk: { held } } : {}),
        });
        if (!started.ok) throw new WorkbenchFailure(started.error);
        live = true;
        dropError = null;
        emit({ type: 'connected', sessionId: state.connection.sessionId, model: state.connection.model, voice: state.connection.voice, connectedAt: state.connection.connectedAt, attempt, clientSecretExpiresAt: state.clientSecretExpiresAt });
        ctx.setState('live');
      };

      try {
        await connect([]);
      } catch (error) {
        off();
        const e = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: String(error) };
        await rec.abort(e, { outputText: '' });
        throw error;
      }

      /** A turn starts only on a connected call: a message refused while dropped must not leave a turn with no answer. */
      const connected = (): void => {
        if (!live) throw new WorkbenchFailure({ code: 'network', message: 'The call is not connected: reconnect first.' });
      };
      const answerText = async (text: string, respond: boolean): Promise<void> => {
        connected();
        conversation.inputSent(rec.sessionMs());
        await send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
        if (respond) await send({ type: 'response.create' });
      };

      return {
        snapshot: () => structuredClone(state),
        async control(message) {
          switch (message.type) {
            case 'commit':
              connected();
              conversation.inputSent(rec.sessionMs());
              // Released: the appends so far are queued before this, so the commit holds them all.
              if (pushToTalk) await media({ type: 'talk', held: (held = false) });
              await send({ type: 'input_audio_buffer.commit' });
              if (message.respond) await send({ type: 'response.create' });
              return;
            case 'clear':
              await send({ type: 'input_audio_buffer.clear' });
              if (pushToTalk) await media({ type: 'talk', held: (held = true) });
              return;
            case 'response.create':
              return send({ type: 'response.create', ...(message.response ? { response: message.response } : {}) });
            case 'response.cancel':
              await media({ type: 'cancel' });
              return;
            case 'text':
              return answerText(message.text, message.respond);
            case 'tool-output':
              return tools.answer(message.callId, message.output, 'window', null, message.respond);
            case 'set-auto-replies':
              emit({ type: 'auto-replies', replies: message.replies });
              tools.repliesChanged();
              return;
            case 'played':
              await media({ type: 'played', itemId: message.itemId, playedMs: message.playedMs, flushed: message.flushed });
              return;
            case 'mute':
              await media({ type: 'mute', muted: message.muted });
              emit({ type: 'muted', muted: message.muted });
              return;
            case 'hang-up':
              ctx.end();
              return;
            case 'reconnect': {
              if (live) throw new WorkbenchFailure({ code: 'invalid_input', message: 'The call is connected; there is nothing to reconnect.' });
              emit({ type: 'status', status: 'reconnecting' });
              try {
                await connect(realtimeSeedItems(state.transcript));
              } catch (error) {
                const e = error instanceof WorkbenchFailure ? error.error : { code: 'internal' as const, message: String(error) };
                emit({ type: 'dropped', code: e.code, message: `Reconnecting failed: ${e.message}`, t: rec.sessionMs() });
                throw error;
              }
              rec.mark('reconnected', { data: { attempt, seeded: state.transcript.length } });
              return;
            }
          }
        },
        async stop(reason) {
          stopping = true;
          tools.clear();
          if (live) {
            emit({ type: 'status', status: 'ending' });
            await deps.media.stopSession(mediaId);
            live = false;
          }
          off();
          const text = realtimeTranscriptText(state.transcript);
          const update = {
            outputText: text,
            outputPreview: text.slice(0, 200),
            output: { object: 'realtime_call', transcript: state.transcript, turns: state.turns, latency: state.latency, usage: state.usage, costTicks: state.costTicks } as unknown as Record<string, never>,
            costTicks: state.costTicks,
          };
          const failed = reason === 'failed' || dropError !== null;
          const message = dropError ? `The connection dropped: ${dropError.message} The recording up to then is kept.` : reason === 'failed' ? 'The call failed.' : null;
          if (failed) await rec.abort({ code: dropError?.code ?? 'network', message: message ?? 'The call failed.' }, update, { stereoMix: { name: 'call.wav' } });
          else await rec.close(update, { stereoMix: { name: 'call.wav' } });
          if (state.status !== 'ended') emit({ type: 'status', status: failed ? 'failed' : 'ended', message });
        },
      };
    },
  });
}

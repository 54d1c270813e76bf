/**
 * The `sip-call` kind: an incoming SIP call announced by a verified `realtime.call.incoming`
 * (main/webhooks), started by main with no window (origin 'main'). It rings (`live.changed` lists
 * it as 'ringing'); `answer` hands the call to the realtime call console through `CallAnswerer`
 * (the realtime live kind, which joins with `call_id` and the API key) and the call is 'answered';
 * `decline` is a hangup of the ringing call; an answered call is transferred (`refer`) or hung up.
 * Ringing longer than SIP_RING_MS ends it 'missed'. Every call is a History run (`sip.call`) through
 * the recording model: the delivery as received, each action sent, and how it ended.
 */
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { LiveSessionSummary } from '../../shared/contract/live';
import { applySipCallEvent, ringingSipCall, SIP_CALL_KIND, SIP_RING_MS, SipCallControlSchema, SipCallInputSchema, type SipCallEvent, type SipCallSnapshot } from '../../shared/sip-call';
import { dtmfKey } from '../../shared/realtime-call/snapshot';
import type { ApiClient, ApiResult } from '../api/client';
import { toWorkbenchError } from '../api/errors';
import { hangupCall, referCall } from '../api/phone-numbers';
import type { SecretScrubber } from '../api/secret-scrubber';
import type { Recordings } from '../services/recording/recordings';
import type { SessionRecorder } from '../services/recording/session-recorder';
import { defineLiveKind } from './kind';

/**
 * What answers a call: starts the realtime call console's live session joined to `callId` and
 * gives its id. The realtime kind provides it; until it does, Answer says the console is missing.
 */
export interface CallAnswerer {
  answer(call: { callId: string; connectionId: string }): Promise<{ liveSessionId: string }>;
  /**
   * Follows the answering session: its events (the console's `wire` messages, where the caller's
   * keys arrive) and its end (the caller hung up, the socket failed, the console was stopped).
   * `ended` is called once, also when the session is already gone. Answers how to stop following.
   */
  follow?(liveSessionId: string, sink: AnsweringSink): Promise<() => void>;
}

export interface AnsweringSink {
  event(event: unknown): void;
  /**
   * The keys the caller pressed so far, as the answering session's snapshot has them (at attach,
   * or a fresh snapshot): keys that came before the follow attached (while the session was
   * starting) are kept from here; those already had are not taken twice.
   */
  keys?(keys: ReadonlyArray<{ digit: string; at: number | null }>): void;
  ended(summary: Pick<LiveSessionSummary, 'endReason' | 'error'> | null): void;
}

export interface SipCallKindDeps {
  /** `/v1/realtime/calls/{id}/hangup|refer` on the call's connection; a failure throws a WorkbenchFailure. */
  calls: {
    hangup(connectionId: string, callId: string): Promise<void>;
    refer(connectionId: string, callId: string, target: string): Promise<void>;
  };
  /** Read at each Answer: null while no console can take a call. */
  answerer: () => CallAnswerer | null;
  recordings: Pick<Recordings, 'open'> | null;
  connection(id: string): { id: string; name: string; isSandbox: boolean; baseUrl: string; scrubber: SecretScrubber };
  ringMs?: number;
  now?: () => number;
}

export const CONSOLE_MISSING = 'The call console is not available in this workbench (it runs no media process for live audio), so the call cannot be answered here. Decline it or transfer it.';

export function sipCallLiveKind(deps: SipCallKindDeps) {
  const now = deps.now ?? Date.now;
  return defineLiveKind({
    id: SIP_CALL_KIND,
    input: SipCallInputSchema,
    control: SipCallControlSchema,
    async start(ctx) {
      const { input } = ctx;
      const connection = deps.connection(input.connectionId);
      const state: SipCallSnapshot = ringingSipCall(input);
      let rec: SessionRecorder | null = null;
      if (deps.recordings) {
        rec = deps.recordings.open(
          {
            kind: 'sip',
            run: {
              id: `run_sip_${ctx.id}`,
              createdAt: input.receivedAt,
              endpoint: 'sip.call',
              model: '',
              connectionId: connection.id,
              connectionName: connection.name,
              isSandbox: connection.isSandbox,
              // The call's control endpoint: what "export code" writes, and what ends it.
              request: { method: 'POST', url: `${connection.baseUrl.replace(/\/$/, '')}/v1/realtime/calls/${encodeURIComponent(input.callId)}/hangup`, headers: {}, body: null },
              promptText: `${input.from ?? ''} ${input.to ?? ''} ${input.callId}`,
              promptPreview: `Incoming call from ${input.from ?? 'an unknown caller'} to ${input.to ?? 'an unknown number'}`,
            },
          },
          connection.scrubber,
        );
        rec.event({ direction: 'in', kind: 'json', event: 'realtime.call.incoming', data: JSON.stringify(input.event) });
      }
      const emit = (event: SipCallEvent) => {
        applySipCallEvent(state, event);
        ctx.emit(event);
        if (event.type !== 'problem') ctx.setState(state.state);
      };
      const sent = (action: Record<string, unknown>) => rec?.event({ direction: 'out', kind: 'json', event: `sip.${String(action.type)}`, data: JSON.stringify(action) });
      const finished = () => state.state !== 'ringing' && state.state !== 'answered';

      ctx.setState('ringing');
      const ringTimer = setTimeout(() => {
        if (state.state !== 'ringing') return;
        emit({ type: 'ended', at: now(), missed: true });
        ctx.end();
      }, deps.ringMs ?? SIP_RING_MS);
      let following: (() => void) | null = null;
      const unfollow = () => {
        following?.();
        following = null;
      };
      ctx.signal.addEventListener('abort', () => (clearTimeout(ringTimer), unfollow()), { once: true });

      /**
       * The answering session's messages: the caller's keys, and whether the service closed the
       * socket (the far side hung up: the realtime kind says so with a status before it ends).
       * Its end ends this call too; an end of ours (the console hung up or was stopped) also hangs
       * the call up at the service, so the caller is not left on a silent line.
       */
      const follow = async (answerer: CallAnswerer, liveSessionId: string): Promise<void> => {
        if (!answerer.follow) return;
        let farSide: string | null = null;
        // Keys taken from the answering session so far (its snapshot's list and its events, in order).
        let taken = 0;
        const key = (digit: { digit: string; at: number }) => {
          taken++;
          if (state.state !== 'answered') return;
          rec?.event({ direction: 'in', kind: 'json', event: 'input_audio_buffer.dtmf_event_received', data: JSON.stringify({ event: digit.digit, received_at: Math.floor(digit.at / 1000) }) });
          emit({ type: 'dtmf', ...digit });
        };
        const stop = await answerer.follow(liveSessionId, {
          keys: (keys) => {
            for (const k of keys.slice(taken)) key({ digit: k.digit, at: k.at ?? now() });
          },
          event: (event) => {
            const ended = farSideEnd(event);
            if (ended) farSide = ended;
            // A dropped socket is not the end: the service holds the caller a while for a rejoin.
            const link = linkChange(event);
            if (link && state.state === 'answered') emit({ type: 'problem', message: link === 'dropped' ? DROPPED_TEXT : null });
            const digit = dtmfOf(event);
            if (digit) key(digit);
          },
          ended: (summary) => {
            if (finished()) return;
            const reason = answeringEnd(summary, farSide);
            rec?.event({ direction: 'in', kind: 'json', event: 'sip.answering_ended', data: JSON.stringify({ reason, endReason: summary?.endReason ?? null }) });
            if (!farSide && summary?.endReason !== 'failed') void deps.calls.hangup(input.connectionId, state.callId).catch((error: unknown) => ctx.log(`hanging up after the console ended: ${failureText(error)}`));
            emit({ type: 'ended', at: now(), missed: false, reason });
            ctx.end(summary?.endReason === 'failed' ? { code: 'network', message: reason } : undefined);
          },
        });
        following = stop;
        if (ctx.signal.aborted) unfollow();
      };

      const refuse = (message: string): never => {
        emit({ type: 'problem', message });
        throw new WorkbenchFailure({ code: 'invalid_input', message });
      };

      return {
        snapshot: () => structuredClone(state),
        async control(message) {
          if (finished()) refuse(`Call ${state.callId} has ${state.state === 'missed' ? 'been missed' : `already ${state.state === 'ended' ? 'ended' : `been ${state.state}`}`}.`);
          switch (message.type) {
            case 'answer': {
              if (state.state !== 'ringing') refuse(`Call ${state.callId} is answered already.`);
              const answerer = deps.answerer();
              if (!answerer) refuse(CONSOLE_MISSING);
              sent(message);
              let joined: { liveSessionId: string };
              try {
                joined = await answerer!.answer({ callId: state.callId, connectionId: input.connectionId });
              } catch (error) {
                const text = error instanceof WorkbenchFailure ? error.error.message : error instanceof Error ? error.message : String(error);
                return void refuse(`The call could not be answered: ${text}`);
              }
              clearTimeout(ringTimer);
              emit({ type: 'answered', at: now(), mediaSessionId: joined.liveSessionId });
              await follow(answerer!, joined.liveSessionId).catch((error: unknown) => ctx.log(`could not follow the answering session: ${failureText(error)}`));
              return;
            }
            case 'decline':
            case 'hangup': {
              if (message.type === 'decline' && state.state !== 'ringing') refuse(`Call ${state.callId} is answered: hang it up instead.`);
              sent(message);
              await deps.calls.hangup(input.connectionId, state.callId).catch((error: unknown) => refuse(failureText(error)));
              clearTimeout(ringTimer);
              emit(message.type === 'decline' ? { type: 'declined', at: now() } : { type: 'ended', at: now(), missed: false, reason: 'Hung up here.' });
              ctx.end();
              return;
            }
            case 'refer': {
              if (state.state !== 'answered') refuse(`Call ${state.callId} can be transferred once it is answered.`);
              sent(message);
              await deps.calls.refer(input.connectionId, state.callId, message.target).catch((error: unknown) => refuse(failureText(error)));
              emit({ type: 'transferred', at: now(), target: message.target });
              ctx.end();
              return;
            }
          }
        },
        async stop(reason) {
          clearTimeout(ringTimer);
          unfollow();
          if (!finished()) emit({ type: 'ended', at: now(), missed: false, reason: reason === 'shutdown' ? 'The app quit.' : 'Stopped here.' });
          const outcome = outcomeText(state, reason);
          await rec?.close({ outputText: outcome, outputPreview: outcome });
        },
      };
    },
  });
}

function failureText(error: unknown): string {
  return error instanceof WorkbenchFailure ? error.error.message : error instanceof Error ? error.message : String(error);
}

function outcomeText(state: SipCallSnapshot, reason: string): string {
  switch (state.state) {
    case 'declined':
      return 'Declined';
    case 'missed':
      return 'Missed (not answered)';
    case 'transferred':
      return `Transferred to ${state.transferredTo}`;
    default:
      return state.answeredAt === null ? `Ended while ringing (${reason === 'shutdown' ? 'the app quit' : reason})` : `Answered, then ended: ${state.endReason ?? 'no reason given.'}`;
  }
}

/** A caller's key in one of the answering session's events (a `wire` message from the service). */
function dtmfOf(event: unknown): { digit: string; at: number } | null {
  const e = event as { type?: string; direction?: string; eventType?: string; data?: unknown } | null;
  if (e?.type !== 'wire' || e.direction !== 'in' || e.eventType !== 'input_audio_buffer.dtmf_event_received') return null;
  const key = dtmfKey(e.data);
  return key ? { digit: key.digit, at: key.at ?? Date.now() } : null;
}

const DROPPED_TEXT = "The call's connection dropped. Reconnect from the call console (the service holds the caller for a short while) or hang up.";

/** The answering session's socket dropped, or came back (a reconnect). */
function linkChange(event: unknown): 'dropped' | 'back' | null {
  const e = event as { type?: string; attempt?: unknown } | null;
  if (e?.type === 'dropped') return 'dropped';
  if (e?.type === 'connected' && typeof e.attempt === 'number' && e.attempt > 1) return 'back';
  return null;
}

/** The realtime kind's word that the service closed the socket cleanly (the caller hung up). */
function farSideEnd(event: unknown): string | null {
  const e = event as { type?: string; status?: string; message?: unknown } | null;
  return e?.type === 'status' && e.status === 'ended' && typeof e.message === 'string' ? e.message : null;
}

/** Why the answered call ended, from how its answering session did. */
function answeringEnd(summary: Pick<LiveSessionSummary, 'endReason' | 'error'> | null, farSide: string | null): string {
  // The realtime kind's own sentence, with the reason the service gave when it closed the socket.
  if (farSide) return farSide;
  switch (summary?.endReason) {
    case 'ended':
      return 'Hung up from the call console.';
    case 'failed':
      return `The call's connection failed: ${summary.error?.message ?? 'no reason given.'}`;
    case 'stopped':
      return 'The call console was closed, which ended the call.';
    case 'shutdown':
      return 'The app quit.';
    default:
      return 'The call console ended before it was followed: the call is over.';
  }
}

/** The kind's dependencies over the app's services: call control with the connection's client, History through the recordings. */
export function sipCallDeps(app: {
  connections: { resolve(id?: string): { client: ApiClient; profile: { id: string; name: string; baseUrl: string }; isSandbox: boolean } };
  recordings: Pick<Recordings, 'open'> | null;
  answerer: () => CallAnswerer | null;
}): SipCallKindDeps {
  const ok = (result: ApiResult<unknown>) => {
    if (!result.ok) throw new WorkbenchFailure(toWorkbenchError(result.error));
  };
  return {
    calls: {
      hangup: async (connectionId, callId) => ok(await hangupCall(app.connections.resolve(connectionId).client, callId)),
      refer: async (connectionId, callId, target) => ok(await referCall(app.connections.resolve(connectionId).client, callId, target)),
    },
    answerer: app.answerer,
    recordings: app.recordings,
    connection: (id) => {
      const { client, profile, isSandbox } = app.connections.resolve(id);
      return { id: profile.id, name: profile.name, isSandbox, baseUrl: profile.baseUrl, scrubber: client.scrubber };
    },
  };
}

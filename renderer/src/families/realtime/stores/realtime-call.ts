/**
 * The call console's call: one `realtime` live session (main/live, shared/realtime-call) this tab
 * started or re-attached to after a reload. The call lives in main; this store holds the
 * attachment, folds its events onto the snapshot with the same `applyRealtimeCallEvent` main uses,
 * feeds every `wire` message into the event log (lib/event-log.ts: folded, capped), keeps the last
 * minute of microphone levels for the latency timeline, and runs the page's microphone when the
 * call takes it from the page (20 ms PCM16 frames straight to the media process on the snapshot's
 * `mic` stream, never through main).
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef, triggerRef } from 'vue';
import type { WorkbenchError } from '@shared/contract/errors';
import type { LiveAttachChunk } from '@shared/contract/live';
import type { SipCall } from '@shared/families/sip/contract';
import {
  REALTIME_CALL_KIND,
  applyRealtimeCallEvent,
  type RealtimeAutoReplies,
  type RealtimeCallControlDraft,
  type RealtimeCallEvent,
  type RealtimeCallInputDraft,
  type RealtimeCallSnapshot,
} from '@shared/realtime-call';
import { toWorkbenchError } from '../../../lib/errors';
import { useLiveSessionsStore } from '../../../stores/live-sessions';
import { drawInTurns } from '../lib/draw-in-turns';
import { DEFAULT_MAX_ROWS, EventLog, type LogMessage } from '../lib/event-log';
import { dtmfKeys, dtmfOf, type DtmfKey } from '../lib/phone-call';
import { CALL_GONE_MESSAGE, onceGone } from './call-gone';
import { useCallMedia } from './call-media';
import { isActive } from '../lib/call-state';
import { followPhoneCall, watchAnsweredCalls } from './phone-call-ends';
import { callJsonl, earlierMessages } from './recorded-messages';

export { isActive } from '../lib/call-state';

/** sessionStorage: the call this tab's console shows (a reload shows it again). */
export const REALTIME_CALL_KEY = 'workbench.realtime.call';
/**
 * Messages said before this window attached that are read back from the recording into the log;
 * a longer call's earlier messages are left to History's timeline (the log says how many).
 */
export const BACKFILL_MAX = 2_000;
/** The latency panel is drawn at most this often (ms) on a busy call: its figures are read, not watched. */
export const LATENCY_MIN_MS = 200;

function remembered(): string | null {
  try {
    return window.sessionStorage.getItem(REALTIME_CALL_KEY);
  } catch {
    return null;
  }
}
function remember(id: string | null): void {
  try {
    if (id) window.sessionStorage.setItem(REALTIME_CALL_KEY, id);
    else window.sessionStorage.removeItem(REALTIME_CALL_KEY);
  } catch {
    // No storage: the console just won't find its call after a reload (it still runs in main).
  }
}


export const useRealtimeCallStore = defineStore('realtime-call', () => {
  const live = useLiveSessionsStore();
  const sessionId = ref<string | null>(null);
  /** The call as of the last event (snapshot + events since). */
  const state = shallowRef<RealtimeCallSnapshot | null>(null);
  /** Bumped on every change of `state` (folded in place): components given parts of it by reference re-render on it. */
  const stateVersion = ref(0);
  /** Epoch ms the call started (its session clock's 0), from the live session's summary. */
  const startedAt = ref<number | null>(null);
  const log = shallowRef(markRaw(new EventLog({ maxRows: DEFAULT_MAX_ROWS })));
  /** Bumped on every change of the log (the log itself is not reactive: 5,000 rows). */
  const logVersion = ref(0);
  /** Bumped when the latency panel is to be drawn (the turns' marks or the log's rows changed): it reads the call on this, not on `state`. */
  const latencyVersion = ref(0);
  const error = shallowRef<WorkbenchError | null>(null);
  const starting = ref(false);
  /** Push-to-talk held (the key or the button). */
  const talking = ref(false);
  /** A SIP call's keypad: the caller's digits in order (from the log's messages, the earlier ones read back too). */
  const dtmf = shallowRef<DtmfKey[]>([]);
  /** A SIP call's ends as the webhook gave them (null: not a phone call, or not known to this app run). */
  const phoneEnds = shallowRef<{ from: string | null; to: string | null } | null>(null);
  /** That SIP call as the SIP family has it (ringing, answered, ended and why), followed while attached. */
  const sipCall = shallowRef<SipCall | null>(null);
  let offPhoneCall: (() => void) | null = null;
  let offAnswered: (() => void) | null = null;
  const media = useCallMedia({ state, startedAt, error, control: (message) => control(message), hangUp: () => hangUp() });
  const { levelDbfs, levels } = media;
  /** While the log is being filled from the recording: the live messages that came meanwhile (null otherwise). */
  let sinceAttach: LogMessage[] | null = null;
  let backfills = 0;

  function resetLog(): void {
    backfills++;
    sinceAttach = null;
    log.value = markRaw(new EventLog({ maxRows: DEFAULT_MAX_ROWS }));
    media.clearLevels();
    dtmf.value = [];
    phoneEnds.value = null;
    sipCall.value = null;
    offPhoneCall?.();
    offPhoneCall = null;
    logVersion.value++;
    latencyVersion.value++;
  }

  /**
   * The log and the folded state are drawn once a frame at most: a call sends hundreds of messages
   * a second, each its own task in the page, and re-rendering the console for each one made tasks
   * of 100 ms and more under load (test/bench/realtime-event-log-chromium.ts).
   *
   * And one part a frame, in turns (lib/draw-in-turns.ts): the log, then the state (the transcript,
   * the call bar), then the latency panel, each drawn when it changed. A frame that re-rendered all of
   * them had the whole console's style, layout and paint to do at once: at a thousand messages a
   * second, over 50 ms (the bench's "arrive"). The latency panel, the costliest part to draw (a new
   * turn moves every drawn timeline) and figures nobody reads at frame rate, is drawn at most every
   * LATENCY_MIN_MS. It reads the turns' marks and the log's rows on its own frames (`latencyVersion`),
   * not on the state's or the log's.
   */
  /** The log's rows ever made as of the last log frame: new rows are new ticks on the latency lanes. */
  let rowsMade = 0;
  const drawer = drawInTurns<'log' | 'state' | 'latency'>({
    parts: ['log', 'state', 'latency'],
    minIntervalMs: { latency: LATENCY_MIN_MS },
    draw(part) {
      if (part === 'log') {
        const made = log.value.rowsMade;
        if (made !== rowsMade) {
          rowsMade = made;
          drawer.changed('latency');
        }
        logVersion.value++;
      } else if (part === 'state') {
        stateVersion.value++;
        triggerRef(state);
      } else {
        latencyVersion.value++;
      }
    },
    now: () => performance.now(),
    frame: (fn) => (typeof requestAnimationFrame === 'function' ? void requestAnimationFrame(fn) : queueMicrotask(fn)),
    later: (fn, ms) => void setTimeout(fn, ms),
  });
  function logChanged(): void {
    drawer.changed('log');
  }
  function stateChanged(): void {
    drawer.changed('state');
    drawer.changed('latency');
  }

  function onEvent(event: RealtimeCallEvent): void {
    if (!state.value) return;
    applyRealtimeCallEvent(state.value, event);
    if (event.type === 'wire') {
      const message: LogMessage = { t: event.t, direction: event.direction, message: event.data };
      log.value.push(message);
      sinceAttach?.push(message);
      const key = dtmfOf(message);
      if (key) dtmf.value = [...dtmf.value, key];
      logChanged();
      return;
    }
    stateChanged();
    if (event.type === 'streams') void media.wire();
    if (!isActive(state.value) || event.type === 'dropped') void media.release();
  }

  function onChunk(chunk: LiveAttachChunk): void {
    if (chunk.type === 'snapshot') {
      startedAt.value = chunk.session.startedAt;
      state.value = structuredClone(chunk.snapshot as RealtimeCallSnapshot);
      stateVersion.value++;
      latencyVersion.value++;
      void backfill(state.value.runId, state.value.wireEvents);
      void media.wire();
      lookUpPhoneCall(state.value.connection.callId);
    } else if (chunk.type === 'event') {
      onEvent(chunk.event as RealtimeCallEvent);
    } else if (chunk.type === 'state') {
      startedAt.value = chunk.session.startedAt;
    } else if (chunk.type === 'error') {
      error.value = chunk.error;
    }
  }

  /**
   * The `count` messages said before this attachment (its snapshot only counts them) read back from
   * the recording, then the live ones that came meanwhile: the log starts where the call did.
   */
  async function backfill(runId: string, count: number): Promise<void> {
    const mine = ++backfills;
    if (count <= 0) return;
    if (count > BACKFILL_MAX) {
      log.value.noteEarlier(count);
      logChanged();
      return;
    }
    sinceAttach = [];
    const earlier = await earlierMessages(runId, count, () => mine === backfills);
    if (mine !== backfills) return;
    const next = markRaw(new EventLog({ maxRows: DEFAULT_MAX_ROWS }));
    if (earlier.length < count) next.noteEarlier(count - earlier.length);
    const all = [...earlier, ...(sinceAttach ?? [])];
    for (const m of all) next.push(m);
    dtmf.value = dtmfKeys(all);
    sinceAttach = null;
    log.value = next;
    logVersion.value++;
    latencyVersion.value++;
  }

  /** Who called whom, and the SIP call's state as it changes, for a call joined with `callId` (the SIP family's calls of this run). */
  function lookUpPhoneCall(callId: string | null): void {
    offPhoneCall?.();
    offPhoneCall = callId
      ? followPhoneCall(callId, (call) => {
          if (state.value?.connection.callId !== callId) return;
          sipCall.value = call;
          phoneEnds.value = { from: call.from, to: call.to };
        })
      : null;
  }

  /** Starts a call (the input checked again in main with the kind's schema). */
  async function start(input: RealtimeCallInputDraft): Promise<void> {
    if (starting.value) return;
    starting.value = true;
    error.value = null;
    try {
      if (sessionId.value) await forget();
      resetLog();
      const view = await live.start(REALTIME_CALL_KIND, input, onChunk);
      sessionId.value = view.id;
      remember(view.id);
    } catch (err) {
      error.value = toWorkbenchError(err);
    } finally {
      starting.value = false;
    }
  }

  /** After a reload: shows the call this tab had, if main still runs it (the log starts again from here; History has it all). */
  function restore(): void {
    const id = remembered();
    if (!id || sessionId.value === id) return;
    show(id);
  }

  /** A SIP call answered from the banner (or the SIP panel) is shown here, unless the console holds a call that goes on. */
  function followSipCalls(): void {
    const idle = () => !starting.value && !(sessionId.value && (state.value === null || isActive(state.value)));
    offAnswered ??= watchAnsweredCalls(idle, (id) => void forget().then(() => (resetLog(), show(id))));
  }

  /** Attaches the console to call `id`, running in main. */
  function show(id: string): void {
    sessionId.value = id;
    remember(id);
    const view = live.attach(id, onChunk);
    onceGone(live, id, () => {
      if (sessionId.value !== id || state.value) return;
      sessionId.value = null;
      remember(null);
      error.value = { code: 'not_found', message: CALL_GONE_MESSAGE };
    });
    if (view.snapshot && !state.value) {
      startedAt.value = view.summary?.startedAt ?? null;
      state.value = structuredClone(view.snapshot as RealtimeCallSnapshot);
      for (const event of view.events) onEvent(event as RealtimeCallEvent);
      triggerRef(state);
      latencyVersion.value++;
      void media.wire();
    }
  }

  /** One control message to the call; a refusal is shown. */
  async function control(message: RealtimeCallControlDraft): Promise<boolean> {
    if (!sessionId.value) return false;
    try {
      await live.send(sessionId.value, message);
      return true;
    } catch (err) {
      error.value = toWorkbenchError(err);
      return false;
    }
  }

  /** Push-to-talk pressed: what was said before is dropped, the microphone's audio buffers until release. */
  async function talkStart(): Promise<void> {
    if (talking.value || state.value?.turnDetection !== 'manual') return;
    talking.value = true;
    await control({ type: 'clear' });
  }

  /** Push-to-talk released: the buffered speech is committed and answered. */
  async function talkEnd(): Promise<void> {
    if (!talking.value) return;
    talking.value = false;
    await control({ type: 'commit' });
  }

  /** Ends the call for every window (its recording kept); `live.stop` when the call no longer answers controls. */
  async function hangUp(): Promise<void> {
    const id = sessionId.value;
    if (!id) return;
    await media.stopMicrophone();
    try {
      await live.stop(id);
    } catch (err) {
      error.value = toWorkbenchError(err);
    }
  }

  /** Leaves the console empty (a call still running goes on in main). */
  async function forget(): Promise<void> {
    const id = sessionId.value;
    sessionId.value = null;
    state.value = null;
    startedAt.value = null;
    lookUpPhoneCall(null);
    remember(null);
    await media.release();
    if (id) await live.detach(id);
  }

  /**
   * The call's messages as JSON Lines: every one main recorded (History's timeline, read a page at
   * a time, so nothing the console's capped log let go is missing), or the log held here when the
   * recording cannot be read.
   */
  async function exportJsonl(): Promise<Blob> {
    return callJsonl(state.value?.runId, log.value);
  }

  return {
    sessionId,
    state,
    stateVersion,
    startedAt,
    log,
    logVersion,
    latencyVersion,
    levelDbfs,
    levels,
    error,
    starting,
    talking,
    dtmf,
    phoneEnds,
    sipCall,
    start,
    restore,
    followSipCalls,
    control,
    talkStart,
    talkEnd,
    hangUp,
    forget,
    exportJsonl,
    mute: (muted: boolean) => control({ type: 'mute', muted }),
    /** A refusal said while dropped ("reconnect first") is stale once reconnecting: cleared. */
    reconnect: () => {
      error.value = null;
      return control({ type: 'reconnect' });
    },
    cancel: () => control({ type: 'response.cancel' }),
    sendText: (text: string) => control({ type: 'text', text }),
    answerTool: (callId: string, output: string) => control({ type: 'tool-output', callId, output }),
    setAutoReplies: (replies: RealtimeAutoReplies) => control({ type: 'set-auto-replies', replies }),
  };
});

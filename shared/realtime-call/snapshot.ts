/**
 * A realtime call's state (the snapshot a window attaches with) and the events that change it.
 * Main keeps its state with `applyRealtimeCallEvent` and emits the same events; the page folds
 * them onto its snapshot with the same function, so both always agree. Pure: no Node, no DOM.
 *
 * Times: `t`/marks are milliseconds on the call's session clock (0 = the call started; the
 * recording's timeline uses the same clock); `connectedAt` and the client secret's expiry are wall
 * clock (epoch ms / epoch s as the service gives it) for countdowns.
 */
import { spread, type Spread } from '../session-metrics';
import type { RealtimeAudioFormat, RealtimeAutoReplies, RealtimeCallInput, RealtimeMicrophone, RealtimeOutput } from './input';
import { transcriptIndex } from './transcript-index';

export type RealtimeCallStatus =
  | 'connecting' // opening the socket (or minting the client secret)
  | 'live' // connected, the session configured
  | 'dropped' // the socket closed under the call: said at once; `reconnect` offered
  | 'reconnecting'
  | 'ending'
  | 'ended'
  | 'failed';

/** One conversation item's text as the transcript shows it (both sides, in conversation order). */
export interface RealtimeTranscriptEntry {
  itemId: string;
  role: 'user' | 'assistant';
  text: string;
  /** Still being spoken/transcribed: the page shows it grey, replaced in place. */
  interim: boolean;
  /** `truncated`: cut to what the user heard (barge-in); `cancelled`: its response was cancelled. */
  status: 'in_progress' | 'done' | 'truncated' | 'cancelled';
  /** Where a truncated answer was cut (ms of its audio). */
  truncatedAtMs: number | null;
  /** Typed text, or speech (the user's audio transcribed, the model's audio transcript). */
  source: 'audio' | 'text';
}

export type RealtimeTurnMark = 'speech_started' | 'speech_stopped' | 'first_audio' | 'first_played' | 'response_done' | 'barge_in' | 'truncated';

/** One user turn and the answer to it, with the latency marks the timeline lines up. */
export interface RealtimeTurn {
  turn: number;
  userItemId: string | null;
  responseId: string | null;
  assistantItemId: string | null;
  /** Session-clock ms of each mark (null: not reached). */
  marks: Record<RealtimeTurnMark, number | null>;
  /** End of user speech → first answer audio byte; → first answer sample played. */
  latency: { firstAudioMs: number | null; firstPlayedMs: number | null };
  bargedIn: boolean;
  /** The ms of answer audio actually played when it was cut (the truncate's `audio_end_ms`). */
  truncatedAtMs: number | null;
}

/** A function call the model made that has no output yet. */
export interface RealtimePendingToolCall {
  callId: string;
  name: string;
  arguments: string;
  itemId: string | null;
  responseId: string | null;
  /** Session ms it arrived. */
  at: number;
  /** Who will answer: the auto-responder (a saved reply exists) or the window (by hand). */
  answeredBy: 'auto' | 'window';
}

/** Token usage summed over the call's `response.done` events (for its cost). */
export interface RealtimeUsageTotals {
  responses: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputAudioTokens: number;
  outputAudioTokens: number;
  inputTextTokens: number;
  outputTextTokens: number;
  cachedInputTokens: number;
}

export interface RealtimeCallSnapshot {
  status: RealtimeCallStatus;
  connection: {
    auth: RealtimeCallInput['auth'];
    model: string | null;
    voice: string | null;
    callId: string | null;
    /** The service's session id (`session.created`). */
    sessionId: string | null;
    /** Wall clock (epoch ms) of the current socket's opening. */
    connectedAt: number | null;
    /** Sockets opened so far (1 + reconnects). */
    attempts: number;
  };
  /** The minted client secret's expiry (epoch seconds, as the service says), for the countdown; null with the key. */
  clientSecretExpiresAt: number | null;
  formats: { input: RealtimeAudioFormat; output: RealtimeAudioFormat };
  /** `manual`: push-to-talk (commit by hand). */
  turnDetection: 'server_vad' | 'manual';
  microphone: RealtimeMicrophone;
  output: RealtimeOutput;
  muted: boolean;
  /** Media streams: the page sends PCM16 20 ms frames on `mic`, reads `levels`, plays `playback` (-1: none). */
  streams: { mic: number; levels: number; playback: number };
  speaking: { user: boolean; model: boolean };
  transcript: RealtimeTranscriptEntry[];
  /** Entries dropped from the front of a long call's snapshot (the recording has them all). */
  droppedTranscript: number;
  turns: RealtimeTurn[];
  droppedTurns: number;
  /** p50/p95 over the turns (of the turns still in the snapshot). */
  latency: { firstAudio: Spread; firstPlayed: Spread };
  pendingToolCalls: RealtimePendingToolCall[];
  autoReplies: RealtimeAutoReplies;
  usage: RealtimeUsageTotals;
  /**
   * What the call cost so far in USD ticks, summed per `response.done` (the service's own figure
   * when its usage has one, else the model's catalogue prices); null while no response had a price.
   */
  costTicks: number | null;
  lastError: { code: string; message: string; t: number } | null;
  /** Messages both ways so far (the `wire` events). */
  wireEvents: number;
  /**
   * The keys a SIP caller pressed (`input_audio_buffer.dtmf_event_received`), in order, with the
   * service's `received_at` in ms: what a follower that attaches late (the SIP call) reads back.
   */
  dtmf: Array<{ digit: string; at: number | null }>;
  /** The run in History that records this call. */
  runId: string;
  end: { message: string | null } | null;
}

/** A message on the socket, for the event log: audio payloads summarised (`{ bytes }`), never the base64. */
export interface RealtimeWireEvent {
  type: 'wire';
  direction: 'in' | 'out';
  t: number;
  /** The message's own `type`. */
  eventType: string;
  data: unknown;
}

export type RealtimeCallEvent =
  | { type: 'status'; status: RealtimeCallStatus; message?: string | null }
  | { type: 'connected'; sessionId: string | null; model: string | null; voice: string | null; connectedAt: number; attempt: number; clientSecretExpiresAt: number | null }
  | { type: 'streams'; streams: RealtimeCallSnapshot['streams'] }
  /** The socket closed under the call (status `dropped`, said at once). */
  | { type: 'dropped'; code: string; message: string; t: number }
  /** Text of an item: `delta` appends, `replace` sets (cumulative interim); `final` closes it. */
  | { type: 'transcript'; itemId: string; role: 'user' | 'assistant'; text: string; mode: 'delta' | 'replace'; final: boolean; source: 'audio' | 'text' }
  | { type: 'transcript-status'; itemId: string; status: 'cancelled' | 'truncated' | 'done'; truncatedAtMs?: number; text?: string }
  | { type: 'speaking'; side: 'user' | 'model'; speaking: boolean }
  /** A new turn (user speech started, a commit, a typed message). */
  | { type: 'turn'; turn: number; userItemId?: string | null }
  | { type: 'turn-ids'; turn: number; userItemId?: string | null; responseId?: string | null; assistantItemId?: string | null }
  | { type: 'mark'; turn: number; mark: RealtimeTurnMark; t: number; playedMs?: number }
  | { type: 'tool-call'; call: RealtimePendingToolCall }
  | { type: 'tool-answered'; callId: string; output: string; by: 'auto' | 'window'; error: string | null }
  | { type: 'auto-replies'; replies: RealtimeAutoReplies }
  /** One `response.done`'s usage, with its cost in USD ticks when known (shared/realtime-call/cost.ts). */
  | { type: 'usage'; usage: Partial<RealtimeUsageTotals>; costTicks?: number | null }
  | { type: 'muted'; muted: boolean }
  | { type: 'error'; code: string; message: string; t: number }
  | RealtimeWireEvent;

/** A snapshot keeps at most this many transcript entries and turns; older ones are counted. */
export const REALTIME_SNAPSHOT_ENTRIES_MAX = 2000;
export const REALTIME_SNAPSHOT_TURNS_MAX = 1000;

/** A call keeps at most this many of its caller's keys (a keypad sequence is short). */
export const REALTIME_SNAPSHOT_DTMF_MAX = 1000;
const DTMF_EVENT = 'input_audio_buffer.dtmf_event_received';

/** A caller's key in a `dtmf_event_received` message: the key and its `received_at` (Unix s) in ms (null: not given); null for no key. */
export function dtmfKey(data: unknown): { digit: string; at: number | null } | null {
  const d = data as { event?: unknown; received_at?: unknown } | null;
  if (typeof d?.event !== 'string' || !/^[0-9*#A-D]$/.test(d.event)) return null;
  return { digit: d.event, at: typeof d.received_at === 'number' ? d.received_at * 1000 : null };
}

export function emptyUsage(): RealtimeUsageTotals {
  return { responses: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, inputAudioTokens: 0, outputAudioTokens: 0, inputTextTokens: 0, outputTextTokens: 0, cachedInputTokens: 0 };
}

/** The state a call starts in (main builds it from the parsed input). */
export function initialRealtimeCallSnapshot(input: RealtimeCallInput, runId: string): RealtimeCallSnapshot {
  return {
    status: 'connecting',
    connection: { auth: input.auth, model: input.model ?? null, voice: input.voice ?? null, callId: input.callId ?? null, sessionId: null, connectedAt: null, attempts: 0 },
    clientSecretExpiresAt: null,
    formats: {
      input: input.formats.input ?? (input.callId ? { type: 'audio/pcmu', rate: 8000 } : { type: 'audio/pcm', rate: 24_000 }),
      output: input.formats.output ?? (input.callId ? { type: 'audio/pcmu', rate: 8000 } : { type: 'audio/pcm', rate: 24_000 }),
    },
    turnDetection: input.turnDetection === null ? 'manual' : 'server_vad',
    microphone: input.microphone,
    output: input.output,
    muted: false,
    streams: { mic: -1, levels: -1, playback: -1 },
    speaking: { user: false, model: false },
    transcript: [],
    droppedTranscript: 0,
    turns: [],
    droppedTurns: 0,
    latency: { firstAudio: spread([]), firstPlayed: spread([]) },
    pendingToolCalls: [],
    autoReplies: input.autoReplies,
    usage: emptyUsage(),
    costTicks: null,
    lastError: null,
    wireEvents: 0,
    dtmf: [],
    runId,
    end: null,
  };
}

function emptyMarks(): RealtimeTurn['marks'] {
  return { speech_started: null, speech_stopped: null, first_audio: null, first_played: null, response_done: null, barge_in: null, truncated: null };
}

/** The entry of `itemId` in the snapshot's transcript (undefined: none), without searching it. */
export function findTranscriptEntry(state: RealtimeCallSnapshot, itemId: string): RealtimeTranscriptEntry | undefined {
  return transcriptIndex(state.transcript).byId.get(itemId);
}

/** The turn numbered `n`: the newest first (a call's events are about its current turn), else a binary search (turns are in order). */
function findTurn(turns: RealtimeTurn[], n: number): RealtimeTurn | undefined {
  const last = turns[turns.length - 1];
  if (!last || last.turn === n) return last;
  let lo = 0;
  let hi = turns.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = turns[mid]!.turn;
    if (t === n) return turns[mid];
    if (t < n) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

function turnOf(state: RealtimeCallSnapshot, n: number): RealtimeTurn {
  let turn = findTurn(state.turns, n);
  if (!turn) {
    turn = { turn: n, userItemId: null, responseId: null, assistantItemId: null, marks: emptyMarks(), latency: { firstAudioMs: null, firstPlayedMs: null }, bargedIn: false, truncatedAtMs: null };
    const before = state.turns[state.turns.length - 1];
    state.turns.push(turn);
    if (before && before.turn > n) state.turns.sort((a, b) => a.turn - b.turn);
    if (state.turns.length > REALTIME_SNAPSHOT_TURNS_MAX) {
      state.turns.shift();
      state.droppedTurns++;
    }
  }
  return turn;
}

function entryOf(state: RealtimeCallSnapshot, itemId: string, role: 'user' | 'assistant', source: 'audio' | 'text'): RealtimeTranscriptEntry {
  const list = state.transcript;
  const index = transcriptIndex(list);
  let entry = index.byId.get(itemId);
  if (!entry) {
    entry = { itemId, role, text: '', interim: true, status: 'in_progress', truncatedAtMs: null, source };
    list.push(entry);
    index.byId.set(itemId, entry);
    if (list.length > REALTIME_SNAPSHOT_ENTRIES_MAX) {
      const gone = list.shift()!;
      if (index.byId.get(gone.itemId) === gone) index.byId.delete(gone.itemId);
      state.droppedTranscript++;
    }
    index.length = list.length;
    index.first = list[0];
    index.last = list[list.length - 1];
  }
  return entry;
}

/** End of user speech (or the typed message / commit) → each answer mark. */
function updateLatency(state: RealtimeCallSnapshot, turn: RealtimeTurn): void {
  const end = turn.marks.speech_stopped;
  const since = (t: number | null): number | null => (end === null || t === null ? null : Math.max(0, t - end));
  turn.latency = { firstAudioMs: since(turn.marks.first_audio), firstPlayedMs: since(turn.marks.first_played) };
  state.latency = { firstAudio: spread(state.turns.map((t) => t.latency.firstAudioMs)), firstPlayed: spread(state.turns.map((t) => t.latency.firstPlayedMs)) };
}

/** Applies one event to a snapshot in place and returns it (main keeps its state this way; the page its copy). */
export function applyRealtimeCallEvent(state: RealtimeCallSnapshot, event: RealtimeCallEvent): RealtimeCallSnapshot {
  switch (event.type) {
    case 'status':
      state.status = event.status;
      if (event.status === 'ended' || event.status === 'failed') {
        state.end = { message: event.message ?? null };
        state.speaking = { user: false, model: false };
      }
      break;
    case 'connected':
      state.status = 'live';
      state.connection = { ...state.connection, sessionId: event.sessionId, model: event.model ?? state.connection.model, voice: event.voice ?? state.connection.voice, connectedAt: event.connectedAt, attempts: event.attempt };
      state.clientSecretExpiresAt = event.clientSecretExpiresAt;
      break;
    case 'streams':
      state.streams = { ...event.streams };
      break;
    case 'dropped':
      state.status = 'dropped';
      state.speaking = { user: false, model: false };
      state.lastError = { code: event.code, message: event.message, t: event.t };
      break;
    case 'transcript': {
      const entry = entryOf(state, event.itemId, event.role, event.source);
      entry.text = event.mode === 'delta' ? entry.text + event.text : event.text;
      if (event.final) {
        entry.interim = false;
        if (entry.status === 'in_progress') entry.status = 'done';
      }
      break;
    }
    case 'transcript-status': {
      const entry = findTranscriptEntry(state, event.itemId);
      if (!entry) break;
      entry.status = event.status;
      entry.interim = false;
      if (event.truncatedAtMs !== undefined) entry.truncatedAtMs = event.truncatedAtMs;
      if (event.text !== undefined) entry.text = event.text;
      break;
    }
    case 'speaking':
      state.speaking = { ...state.speaking, [event.side]: event.speaking };
      break;
    case 'turn': {
      const turn = turnOf(state, event.turn);
      if (event.userItemId !== undefined) turn.userItemId = event.userItemId;
      break;
    }
    case 'turn-ids': {
      const turn = turnOf(state, event.turn);
      if (event.userItemId !== undefined) turn.userItemId = event.userItemId;
      if (event.responseId !== undefined) turn.responseId = event.responseId;
      if (event.assistantItemId !== undefined) turn.assistantItemId = event.assistantItemId;
      break;
    }
    case 'mark': {
      const turn = turnOf(state, event.turn);
      // The first of each mark counts (a turn's latency is to its first audio), except a truncate, which says where it was cut last.
      if (event.mark === 'truncated') {
        turn.marks.truncated = event.t;
        if (event.playedMs !== undefined) turn.truncatedAtMs = event.playedMs;
      } else {
        turn.marks[event.mark] ??= event.t;
      }
      if (event.mark === 'barge_in') turn.bargedIn = true;
      updateLatency(state, turn);
      break;
    }
    case 'tool-call':
      state.pendingToolCalls = [...state.pendingToolCalls.filter((c) => c.callId !== event.call.callId), event.call];
      break;
    case 'tool-answered':
      state.pendingToolCalls = state.pendingToolCalls.filter((c) => c.callId !== event.callId);
      break;
    case 'auto-replies':
      state.autoReplies = event.replies;
      for (const call of state.pendingToolCalls) call.answeredBy = event.replies[call.name] ? 'auto' : 'window';
      break;
    case 'usage': {
      const u = state.usage;
      for (const [key, value] of Object.entries(event.usage) as Array<[keyof RealtimeUsageTotals, number | undefined]>) if (typeof value === 'number') u[key] += value;
      if (typeof event.costTicks === 'number') state.costTicks = (state.costTicks ?? 0) + event.costTicks;
      break;
    }
    case 'muted':
      state.muted = event.muted;
      break;
    case 'error':
      state.lastError = { code: event.code, message: event.message, t: event.t };
      break;
    case 'wire': {
      state.wireEvents++;
      const key = event.direction === 'in' && event.eventType === DTMF_EVENT ? dtmfKey(event.data) : null;
      if (key && state.dtmf.length < REALTIME_SNAPSHOT_DTMF_MAX) state.dtmf.push(key);
      break;
    }
  }
  return state;
}

/** The transcript as plain text, one entry a line with its side (History's output text, the reconnect seed's check). */
export function realtimeTranscriptText(entries: readonly RealtimeTranscriptEntry[]): string {
  return entries
    .filter((e) => e.text.trim())
    .map((e) => `${e.role === 'user' ? 'User' : 'Model'}: ${e.text.trim()}`)
    .join('\n');
}

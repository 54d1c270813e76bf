/**
 * The turn-taking half of a realtime session in one object: the detector, barge-in, the idle
 * timeout and DTMF buffering wired together with the rules of how they interact, so the session
 * feeds it what happens (audio, digits, its responses, the clock) and acts on what comes back.
 *
 * Order on the caller starting to speak: buffered DTMF digits are flushed first (as a user
 * message, with no response of their own: the speech will get one), then a response in flight is
 * cancelled (server VAD, `interrupt_response`), then `speech_started` is sent; the idle timer
 * pauses. On a commit the user turn is handed over and, in server VAD mode with `create_response`,
 * answered. An idle timeout commits a silent turn and asks for a spoken check-in.
 *
 * Everything is pure: no timers, no socket. Time comes in as `nowMs` on the session's clock; the
 * session keeps one timer at `deadline()` and calls `tick()`.
 */
import { ResponseTracker, type BargeIn } from './barge-in';
import { DtmfBuffer, type DtmfError, type DtmfEvent } from './dtmf';
import { IdleTimer } from './idle';
import { TurnDetector, type CommitError, type Committed, type TurnEvent } from './turn-detector';

/** `session.turn_detection` as the wire (and the session's config) holds it; null: manual. */
export interface WireTurnDetection {
  threshold: number;
  prefix_padding_ms: number;
  silence_duration_ms: number;
  idle_timeout_ms?: number | null;
  create_response?: boolean;
  interrupt_response?: boolean;
}

export type TurnAction =
  /** A server event to send as is (`{type, event_id, ...fields}`). */
  | { kind: 'send'; type: string; fields: Record<string, unknown> }
  /** Stop the response's audio now; `response.done` with `status: cut.status, status_details: cut.statusDetails`. */
  | { kind: 'cancel_response'; cut: BargeIn }
  /**
   * A user audio turn: `input_audio_buffer.committed` and `conversation.item.added` (input_audio,
   * id `committed.itemId`), input transcription if configured, then `response.create` if `respond`.
   */
  | { kind: 'user_audio'; committed: Committed; respond: boolean }
  /** DTMF digits as a user text message (`input_text`), then a response if `respond`. */
  | { kind: 'user_text'; text: string; reason: 'pound' | 'idle' | 'speech'; respond: boolean }
  /** Idle timeout: the silent user turn `committed` (as user_audio), then a response that speaks `text`. */
  | { kind: 'check_in'; committed: Committed; text: string };

export interface TurnTakingOptions {
  /** The session's input rate (8000 for G.711). */
  sampleRate: number;
  turnDetection: WireTurnDetection | null;
  nowMs: number;
  newItemId: () => string;
}

const vadOf = (td: WireTurnDetection | null) =>
  td ? { threshold: td.threshold, prefixPaddingMs: td.prefix_padding_ms, silenceDurationMs: td.silence_duration_ms } : null;

export class TurnTaking {
  readonly responses = new ResponseTracker();
  private readonly dtmfBuffer = new DtmfBuffer();
  private readonly idle: IdleTimer;

  private constructor(
    private readonly detector: TurnDetector,
    private td: WireTurnDetection | null,
    nowMs: number,
  ) {
    this.idle = new IdleTimer(td?.idle_timeout_ms ?? null, nowMs, 0);
  }

  static async create(opts: TurnTakingOptions): Promise<TurnTaking> {
    const detector = await TurnDetector.create({ sampleRate: opts.sampleRate, vad: vadOf(opts.turnDetection), newItemId: opts.newItemId });
    return new TurnTaking(detector, opts.turnDetection, opts.nowMs);
  }

  get mode(): 'server_vad' | 'manual' {
    return this.detector.mode;
  }

  /** Milliseconds of input audio so far. */
  get positionMs(): number {
    return this.detector.positionMs;
  }

  /** When `tick` has something to do next (session clock ms), or null. */
  deadline(): number | null {
    const times = [this.idle.deadline(), this.dtmfBuffer.deadline()].filter((t): t is number => t !== null);
    return times.length > 0 ? Math.min(...times) : null;
  }

  /** A `session.update` with a new turn_detection (the input format unchanged). */
  configure(td: WireTurnDetection | null): void {
    this.td = td;
    this.detector.configure(vadOf(td));
    this.idle.configure(td?.idle_timeout_ms ?? null);
  }

  /** Decoded input samples (`input_audio_buffer.append`, or a SIP caller's audio). */
  append(samples: Int16Array, nowMs: number): TurnAction[] {
    return this.fromDetector(this.detector.push(samples), nowMs);
  }

  /** `input_audio_buffer.commit` (manual mode; the session refuses it in server VAD mode). */
  commit(nowMs: number): TurnAction[] | CommitError {
    const c = this.detector.commit();
    if ('code' in c) return c;
    this.idle.speechStopped(nowMs, this.positionMs);
    return [{ kind: 'user_audio', committed: c, respond: false }];
  }

  /** `input_audio_buffer.clear` (the session sends `input_audio_buffer.cleared`). */
  clear(): void {
    this.detector.clear();
  }

  /** A user item the client created (text, audio, function output): the user is there. */
  userItem(nowMs: number): void {
    this.idle.userActivity(nowMs, this.positionMs);
  }

  /** `response.created` was sent. */
  responseStarted(responseId: string): void {
    this.responses.started(responseId);
    this.idle.responseStarted();
  }

  /** An audio delta of `ms` for `itemId` was sent. */
  audioSent(itemId: string, ms: number): void {
    this.responses.audioSent(itemId, ms);
  }

  /**
   * `response.done` of `responseId` was sent (any status); `playbackEndsAtMs`: when its audio ends
   * playing in real time. The done of a response already replaced by a newer one changes nothing.
   */
  responseDone(responseId: string, nowMs: number, playbackEndsAtMs = nowMs): void {
    const current = this.responses.responseId;
    if (current !== null && current !== responseId) return;
    this.responses.finished(responseId);
    this.idle.responseDone(nowMs, this.positionMs, playbackEndsAtMs);
  }

  /** Keys pressed on a SIP call (one, or several at once). */
  dtmf(keys: string, nowMs: number): TurnAction[] | DtmfError {
    const events = this.dtmfBuffer.pressAll(keys, nowMs);
    if (!Array.isArray(events)) return events;
    return this.fromDtmf(events, nowMs);
  }

  /** Timers due at `nowMs`: the DTMF idle flush, the idle timeout. */
  tick(nowMs: number): TurnAction[] {
    const actions = this.fromDtmf(this.dtmfBuffer.tick(nowMs), nowMs);
    const t = this.idle.tick(nowMs, this.positionMs);
    if (t) {
      const committed = this.detector.commit(0) as Committed;
      actions.push({ kind: 'send', type: 'input_audio_buffer.timeout_triggered', fields: { audio_start_ms: t.audioStartMs, audio_end_ms: t.audioEndMs, item_id: committed.itemId } });
      actions.push({ kind: 'check_in', committed, text: t.checkIn });
    }
    return actions;
  }

  dispose(): void {
    this.detector.dispose();
  }

  private fromDetector(events: TurnEvent[], nowMs: number): TurnAction[] {
    const actions: TurnAction[] = [];
    for (const e of events) {
      if (e.type === 'speech_started') {
        for (const f of this.dtmfBuffer.speechStarted()) if (f.type === 'dtmf_flush') actions.push({ kind: 'user_text', text: f.text, reason: f.reason, respond: false });
        const cut = this.responses.speechStarted(this.mode, this.td?.interrupt_response ?? true);
        if (cut) actions.push({ kind: 'cancel_response', cut });
        this.idle.speechStarted();
        actions.push({ kind: 'send', type: 'input_audio_buffer.speech_started', fields: { audio_start_ms: e.audioStartMs, item_id: e.itemId } });
      } else if (e.type === 'speech_stopped') {
        this.idle.speechStopped(nowMs, this.positionMs);
        actions.push({ kind: 'send', type: 'input_audio_buffer.speech_stopped', fields: { audio_end_ms: e.audioEndMs, item_id: e.itemId } });
      } else {
        const respond = (this.td?.create_response ?? true) && !this.responses.inProgress;
        actions.push({ kind: 'user_audio', committed: e, respond });
      }
    }
    return actions;
  }

  private fromDtmf(events: DtmfEvent[], nowMs: number): TurnAction[] {
    const actions: TurnAction[] = [];
    for (const e of events) {
      if (e.type === 'dtmf_event_received') {
        actions.push({ kind: 'send', type: 'input_audio_buffer.dtmf_event_received', fields: { event: e.digit, received_at: e.receivedAt } });
      } else {
        this.idle.userActivity(nowMs, this.positionMs);
        actions.push({ kind: 'user_text', text: e.text, reason: e.reason, respond: !this.responses.inProgress });
      }
    }
    return actions;
  }
}

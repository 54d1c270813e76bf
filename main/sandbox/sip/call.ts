/**
 * One simulated inbound call (CallLink, call-link.ts): it rings until a socket joins (or
 * RING_TIMEOUT_MS pass), then plays its script on a timeline that starts at the first join: the
 * caller's audio in 20 ms µ-law frames, the script's DTMF keys at their times, keys pressed
 * through the control API when pressed, then silence, and the caller hangs up `hangupAfterMs`
 * after the script ends (its audio and its last key). Time comes from a CallTimer: real timers in
 * the sandbox, a hand-moved one in tests, so every frame and key can be checked without waiting.
 */
import { checkReferTarget } from './rules';
import type { CallEnd, CallEndReason, CallLink, CallListener, CallState, JoinedCall, LinkResult } from './call-link';
import { FRAME_BYTES, FRAME_MS, MULAW_SILENCE } from './caller-audio';
import { CallerEar } from './caller-ear';

export const RING_TIMEOUT_MS = 60_000;
export const REJOIN_GRACE_MS = 30_000;
/** A caller waiting for the greeting starts this long after it ended, or this long after the join if nobody spoke. */
export const GREETING_PAUSE_MS = 300;
export const GREETING_MAX_WAIT_MS = 15_000;

/** Monotonic time and timers; `every` and `after` return a function that stops them. */
export interface CallTimer {
  now(): number;
  every(ms: number, fn: () => void): () => void;
  after(ms: number, fn: () => void): () => void;
}

export const realTimer: CallTimer = {
  now: () => performance.now(),
  every(ms, fn) {
    // Self-correcting: each tick aims 1 ms after the next multiple of `ms` from the start, so timer
    // lateness does not add up (setInterval drifts), and a tick that fires early (libuv measures
    // from a cached loop time) is followed at once by one at the deadline it missed, rather than a
    // whole period later.
    const start = performance.now() + 1;
    let timer: NodeJS.Timeout;
    const tick = (): void => {
      fn();
      const elapsed = performance.now() - start;
      timer = setTimeout(tick, Math.max(1, (Math.floor(elapsed / ms) + 1) * ms - elapsed));
    };
    timer = setTimeout(tick, ms + 1);
    return () => clearTimeout(timer);
  },
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

export interface CallScript {
  /** µ-law 8 kHz, whole frames (dropped when the call ends). */
  audio: Uint8Array;
  /** Sorted by time. */
  dtmf: Array<{ digit: string; atMs: number }>;
  /** Silence after the script before the caller hangs up; null: never (the agent must end it). */
  hangupAfterMs: number | null;
  /** The audio starts once the model's first utterance played out (GREETING_PAUSE_MS after it), or at GREETING_MAX_WAIT_MS. */
  waitForGreeting?: boolean;
}

export interface CallOptions {
  callId: string;
  team: string;
  from: string;
  to: string;
  script: CallScript;
  timer?: CallTimer;
  ringTimeoutMs?: number;
  rejoinGraceMs?: number;
  /** Told once when the call ends (stops webhook retries, logs). */
  onEnd?: (end: CallEnd) => void;
}

const SILENT_FRAME = new Uint8Array(FRAME_BYTES).fill(MULAW_SILENCE);

export class SimulatedCall implements CallLink {
  readonly callId: string;
  readonly team: string;
  readonly from: string;
  readonly to: string;
  private readonly script: CallScript;
  private readonly timer: CallTimer;
  private readonly options: CallOptions;
  private status: CallState = 'ringing';
  private listener: CallListener | null = null;
  private joinedAt = 0;
  private nextFrame = 0;
  private nextKey = 0;
  private hangupAtMs: number | null = null;
  /** Where the script's audio starts on the timeline; null while the caller waits for the greeting. */
  private scriptStartMs: number | null = null;
  private stopTicking: (() => void) | null = null;
  private stopWaiting: (() => void) | null;
  private ending: CallEnd | null = null;
  /** What the caller did, for the control API's status: keys sent, frames sent. */
  readonly sent = { frames: 0, keys: [] as Array<{ digit: string; atMs: number }> };
  /** What the caller heard of the model (caller-ear.ts). */
  readonly ear = new CallerEar();

  constructor(options: CallOptions) {
    this.options = options;
    ({ callId: this.callId, team: this.team, from: this.from, to: this.to, script: this.script } = options);
    this.timer = options.timer ?? realTimer;
    if (!this.script.waitForGreeting) this.startScript(0);
    this.stopWaiting = this.timer.after(options.ringTimeoutMs ?? RING_TIMEOUT_MS, () =>
      this.end('not_answered', `Nobody answered: no socket joined call ${this.callId} within ${Math.round((options.ringTimeoutMs ?? RING_TIMEOUT_MS) / 1000)} s of its ringing.`),
    );
  }

  get state(): CallState {
    return this.status;
  }

  /** How the call ended, once it has. */
  get outcome(): CallEnd | null {
    return this.ending;
  }

  /** Where the caller's script began on the timeline (later than 0 when they waited for the greeting); null while waiting. */
  get scriptStartedAtMs(): number | null {
    return this.scriptStartMs;
  }

  /** The script's audio starts `atMs` into the call; the caller hangs up `hangupAfterMs` after it and the last key. */
  private startScript(atMs: number): void {
    this.scriptStartMs = atMs;
    const audioMs = (this.script.audio.length / FRAME_BYTES) * FRAME_MS;
    const lastKey = this.script.dtmf.at(-1)?.atMs ?? 0;
    this.hangupAtMs = this.script.hangupAfterMs === null ? null : Math.max(atMs + audioMs, lastKey) + this.script.hangupAfterMs;
  }

  /** Milliseconds on the call's timeline (0 at the first join), or null before it. */
  elapsedMs(): number | null {
    if (this.status === 'ended') return this.ending?.atMs ?? null;
    return this.status === 'ringing' ? null : this.timer.now() - this.joinedAt;
  }

  join(listener: CallListener): { ok: true; call: JoinedCall } | { ok: false; message: string } {
    if (this.status === 'ended') return { ok: false, message: `Call ${this.callId} has ended (${this.ending?.reason}): ${this.ending?.message}` };
    if (this.listener) return { ok: false, message: `Call ${this.callId} is already joined by another socket; a call has one agent at a time.` };
    this.stopWaiting?.();
    this.stopWaiting = null;
    this.listener = listener;
    if (this.status === 'ringing') {
      this.status = 'joined';
      this.joinedAt = this.timer.now();
      this.stopTicking = this.timer.every(FRAME_MS, () => this.advance());
    }
    const mine = listener;
    const live = (): boolean => this.listener === mine && this.status === 'joined';
    return {
      ok: true,
      call: {
        refer: (target) => (live() ? this.refer(target) : this.left()),
        hangup: () => (live() ? this.hangup() : this.left()),
        modelAudio: (mulaw) => {
          if (live()) this.ear.push(mulaw, this.timer.now() - this.joinedAt);
        },
        modelAudioInterrupted: () => {
          if (live()) this.ear.interrupt(this.timer.now() - this.joinedAt);
        },
        leave: () => {
          if (!live()) return;
          this.listener = null;
          const grace = this.options.rejoinGraceMs ?? REJOIN_GRACE_MS;
          this.stopWaiting = this.timer.after(grace, () => this.end('agent_left', `The agent's socket closed and nobody joined call ${this.callId} again within ${Math.round(grace / 1000)} s.`));
        },
      },
    };
  }

  /** Transfers the call: validated, then the call ends as `referred`. */
  refer(targetUri: string): LinkResult {
    if (this.status !== 'joined') return this.notLive();
    const problem = checkReferTarget('target_uri', targetUri);
    if (problem) return { ok: false, message: problem };
    this.end('referred', `The call was transferred to ${targetUri}.`, targetUri);
    return { ok: true };
  }

  hangup(): LinkResult {
    if (this.status !== 'joined') return this.notLive();
    this.end('hangup', 'The agent hung up.');
    return { ok: true };
  }

  /** Keys pressed now (control API): sent at the current point of the timeline, in order. */
  press(digits: string): LinkResult {
    if (this.status !== 'joined') return this.notLive();
    this.advance();
    if (this.status !== 'joined') return this.notLive();
    const at = Math.max(0, Math.round(this.timer.now() - this.joinedAt));
    for (const digit of digits.toUpperCase()) this.key(digit, at);
    return { ok: true };
  }

  /** Ends the call (sandbox closing, or a reason above); idempotent. */
  end(reason: CallEndReason, message: string, target?: string): void {
    if (this.status === 'ended') return;
    const atMs = this.status === 'ringing' ? null : Math.round(this.timer.now() - this.joinedAt);
    this.status = 'ended';
    this.stopTicking?.();
    this.stopWaiting?.();
    this.stopTicking = this.stopWaiting = null;
    this.ending = { reason, message, atMs, ...(target === undefined ? {} : { target }) };
    // An ended call is kept for its status only: its audio (up to 28.8 MB for an hour) goes now.
    this.script.audio = new Uint8Array(0);
    this.ear.finish();
    const listener = this.listener;
    this.listener = null;
    listener?.ended(this.ending);
    this.options.onEnd?.(this.ending);
  }

  /** Sends everything due up to now: frames whose 20 ms have passed, keys whose time has come. */
  advance(): void {
    if (this.status !== 'joined') return;
    const now = this.timer.now() - this.joinedAt;
    for (;;) {
      // Recomputed each frame: the hang-up time is known only once the script has started.
      const until = this.hangupAtMs === null ? now : Math.min(now, this.hangupAtMs);
      const frameStart = this.nextFrame * FRAME_MS;
      const frameEnd = frameStart + FRAME_MS;
      const key = this.script.dtmf[this.nextKey];
      if (key && key.atMs <= until && key.atMs < frameEnd) {
        this.nextKey++;
        this.key(key.digit, key.atMs);
        continue;
      }
      if (frameEnd > until) break;
      if (this.scriptStartMs === null && (this.ear.firstUtteranceEnd(frameStart, GREETING_PAUSE_MS) !== null || frameStart >= GREETING_MAX_WAIT_MS)) this.startScript(frameStart);
      const at = this.scriptStartMs === null || frameStart < this.scriptStartMs ? -1 : ((frameStart - this.scriptStartMs) / FRAME_MS) * FRAME_BYTES;
      const frame = at >= 0 && at < this.script.audio.length ? this.script.audio.subarray(at, at + FRAME_BYTES) : SILENT_FRAME;
      this.nextFrame++;
      this.sent.frames++;
      this.listener?.audio(frame, frameEnd - FRAME_MS);
    }
    if (this.hangupAtMs !== null && now >= this.hangupAtMs) this.end('caller_hung_up', 'The caller hung up.');
  }

  private key(digit: string, atMs: number): void {
    this.sent.keys.push({ digit, atMs });
    this.listener?.dtmf(digit, atMs);
  }

  private notLive(): LinkResult {
    if (this.status === 'ringing') return { ok: false, message: `Call ${this.callId} has not been answered yet: join it first (/v1/realtime?call_id=${this.callId}).` };
    return this.gone();
  }

  private gone(): LinkResult {
    return { ok: false, message: `Call ${this.callId} has ended (${this.ending?.reason}): ${this.ending?.message}` };
  }

  /** A socket that left (or was replaced) no longer controls the call. */
  private left(): LinkResult {
    return this.status === 'ended' ? this.gone() : { ok: false, message: `This socket left call ${this.callId}; join it again to control it.` };
  }
}

/**
 * `turn_detection.idle_timeout_ms`: after that long with nothing from the user and no response in
 * progress, the server commits a silent user turn (`input_audio_buffer.timeout_triggered`) and
 * speaks a check-in. Counting starts when the model's last audio would have finished playing
 * (not when it finished sending: the sandbox may send faster than real time), or when the session
 * began; the user speaking, or any user item, starts it again; a response pauses it.
 *
 * A pure state machine on the session's clock (milliseconds it passes in; tests drive it). The
 * session calls `tick(now)` from a timer set to `deadline()`, and on every relevant event.
 */

export interface IdleTimeout {
  type: 'timeout_triggered';
  /** Input audio position (ms) when the silence began and when the timer fired (wire `audio_start_ms` / `audio_end_ms`). */
  audioStartMs: number;
  audioEndMs: number;
  /** What the session's check-in response says. */
  checkIn: string;
  /** How many check-ins this session has had, this one included. */
  count: number;
}

/** Spoken in turn; the same session always says the same sequence. */
export const CHECK_INS = ['Are you still there?', 'I am still here. Is there anything else I can help you with?', 'Take your time. Just say something when you are ready.'];

export class IdleTimer {
  /** Wall ms when the silence began; null while paused (user speaking, response in flight) or off. */
  private since: number | null;
  private audioSince = 0;
  private fired = 0;
  private userSpeaking = false;
  private responding = false;

  /** `timeoutMs` null or 0: off (`idle_timeout_ms` absent). */
  constructor(
    private timeoutMs: number | null,
    nowMs: number,
    audioMs = 0,
  ) {
    this.since = nowMs;
    this.audioSince = audioMs;
  }

  /** session.update changed `idle_timeout_ms` (null: off); counting goes on from where it was. */
  configure(timeoutMs: number | null): void {
    this.timeoutMs = timeoutMs;
  }

  /** When the timer fires next (wall ms), or null: the session sets one timeout for it. */
  deadline(): number | null {
    if (!this.timeoutMs || this.since === null) return null;
    return this.since + this.timeoutMs;
  }

  /** speech_started. */
  speechStarted(): void {
    this.userSpeaking = true;
    this.since = null;
  }

  /** speech_stopped (a commit and a response usually follow), or a manual commit. */
  speechStopped(nowMs: number, audioMs: number): void {
    this.userSpeaking = false;
    this.restart(nowMs, audioMs);
  }

  /** A user item (text, audio, DTMF digits, a function output) arrived: the user is there. */
  userActivity(nowMs: number, audioMs: number): void {
    this.restart(nowMs, audioMs);
  }

  /** response.created. */
  responseStarted(): void {
    this.responding = true;
    this.since = null;
  }

  /**
   * response.done. `playbackEndsAtMs`: when the audio it sent ends playing in real time (default
   * now); `audioMs`: the input buffer's position then.
   */
  responseDone(nowMs: number, audioMs: number, playbackEndsAtMs = nowMs): void {
    this.responding = false;
    // The input keeps streaming while the tail plays: the silence starts that much later in it.
    const ahead = Math.max(0, playbackEndsAtMs - nowMs);
    this.restart(nowMs + ahead, audioMs + ahead);
  }

  /** The timeout if it is due at `nowMs` (then counting starts again from now), else null. */
  tick(nowMs: number, audioMs: number): IdleTimeout | null {
    const due = this.deadline();
    if (due === null || nowMs < due) return null;
    this.fired++;
    const event: IdleTimeout = {
      type: 'timeout_triggered',
      audioStartMs: Math.min(this.audioSince, audioMs),
      audioEndMs: audioMs,
      checkIn: CHECK_INS[(this.fired - 1) % CHECK_INS.length],
      count: this.fired,
    };
    this.restart(nowMs, audioMs);
    return event;
  }

  private restart(nowMs: number, audioMs: number): void {
    if (this.userSpeaking || this.responding) return;
    this.since = nowMs;
    this.audioSince = audioMs;
  }
}

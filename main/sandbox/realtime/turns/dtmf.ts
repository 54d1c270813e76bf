/**
 * DTMF on a SIP call (spec "Realtime WebSocket messages" and Limits): each key the caller presses
 * is announced at once (`input_audio_buffer.dtmf_event_received`), and the digits are buffered and
 * handed to the model as one user text message when the caller presses `#`, after 2.5 s with no
 * further key, or when the caller starts speaking, whichever comes first.
 *
 * A pure state machine on the session's clock (milliseconds passed in; tests drive it). The
 * session calls `tick(now)` from a timer set to `deadline()`.
 */

/** Spec Limits: "Realtime DTMF idle flush". */
export const DTMF_IDLE_FLUSH_MS = 2500;
export const DTMF_KEYS = '0123456789*#ABCD';

export type DtmfEvent =
  | { type: 'dtmf_event_received'; digit: string; /** Unix seconds (wire `received_at`). */ receivedAt: number }
  | {
      type: 'dtmf_flush';
      /** The keys as pressed, `#` included when it ended them. */
      digits: string;
      reason: 'pound' | 'idle' | 'speech';
      /** The user message's text (`input_text`). */
      text: string;
    };

export interface DtmfError {
  code: 'invalid_dtmf_digit';
  message: string;
}

export class DtmfBuffer {
  private digits = '';
  private lastAt: number | null = null;

  /** Keys waiting to be flushed. */
  get pending(): string {
    return this.digits;
  }

  /** When the idle flush is due (ms on the session clock), or null with nothing buffered. */
  deadline(): number | null {
    return this.lastAt === null ? null : this.lastAt + DTMF_IDLE_FLUSH_MS;
  }

  /**
   * One key at `nowMs`. A due idle flush of the earlier keys comes first (the timer may not have
   * run yet), then the key's event, then the flush `#` causes.
   */
  press(key: string, nowMs: number): DtmfEvent[] | DtmfError {
    const digit = key.toUpperCase();
    if (digit.length !== 1 || !DTMF_KEYS.includes(digit)) {
      return { code: 'invalid_dtmf_digit', message: `'${key}' is not a DTMF key; use one of ${DTMF_KEYS.split('').join(' ')}.` };
    }
    const events: DtmfEvent[] = this.tick(nowMs);
    events.push({ type: 'dtmf_event_received', digit, receivedAt: Math.floor(nowMs / 1000) });
    this.digits += digit;
    this.lastAt = nowMs;
    if (digit === '#') events.push(this.flush('pound'));
    return events;
  }

  /** Several keys pressed at once (`POST /sandbox/calls/{id}/dtmf {"digits": "12#"}`), in order. */
  pressAll(keys: string, nowMs: number): DtmfEvent[] | DtmfError {
    const bad = [...keys].find((k) => !DTMF_KEYS.includes(k.toUpperCase()));
    if (bad !== undefined || keys.length === 0) {
      return { code: 'invalid_dtmf_digit', message: keys.length === 0 ? 'No DTMF keys given.' : `'${bad}' is not a DTMF key; use one of ${DTMF_KEYS.split('').join(' ')}.` };
    }
    const events: DtmfEvent[] = [];
    for (const k of keys) events.push(...(this.press(k, nowMs) as DtmfEvent[]));
    return events;
  }

  /** The idle flush, if due at `nowMs`. */
  tick(nowMs: number): DtmfEvent[] {
    const due = this.deadline();
    return due !== null && nowMs >= due ? [this.flush('idle')] : [];
  }

  /** The caller started speaking (speech_started): flush before the speech becomes a turn. */
  speechStarted(): DtmfEvent[] {
    return this.digits ? [this.flush('speech')] : [];
  }

  private flush(reason: 'pound' | 'idle' | 'speech'): DtmfEvent {
    const digits = this.digits;
    this.digits = '';
    this.lastAt = null;
    return { type: 'dtmf_flush', digits, reason, text: digits };
  }
}

/**
 * Sending server events on a realtime socket: each gets an `event_id`; sends are queued in order
 * and a sender can wait for the socket to take an event (back-pressure for audio). Ids of the
 * session's objects (`sess_`, `conv_`, `item_`, `resp_`, `call_`) come from here too.
 */
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

/** An `error` event's object (wire-notes §2.3: type, code, message, param, event_id). */
export interface RealtimeErrorInfo {
  type?: 'invalid_request_error' | 'server_error';
  code: string;
  message: string;
  param?: string | null;
  /** The client event it answers. */
  event_id?: string | null;
}

export class EventSender {
  constructor(private readonly ws: WebSocket) {}

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /** Sends `{type, event_id, ...fields}`; resolves once the socket has taken it (or at once when closed). */
  send(type: string, fields: Record<string, unknown> = {}): Promise<void> {
    if (!this.open) return Promise.resolve();
    const text = JSON.stringify({ type, event_id: newId('event'), ...fields });
    return new Promise((resolve) => this.ws.send(text, () => resolve()));
  }

  error(info: RealtimeErrorInfo): Promise<void> {
    return this.send('error', {
      error: { type: info.type ?? 'invalid_request_error', code: info.code, message: info.message, param: info.param ?? null, event_id: info.event_id ?? null },
    });
  }
}

/**
 * Messages of the browser-mode WebSocket transport. (Electron IPC carries the same payloads over
 * per-channel `invoke` and `webContents.send`.) A call's reply is `{ok, value}` or `{ok:false, error}`
 * so errors survive the crossing as values. A `stream` message starts a stream or a session (the
 * operation's kind decides); chunks and the end of both travel as `chunk` / `end`. A message that
 * carries a Uint8Array goes as a binary frame (binary-frame.ts), any other as a text frame.
 */
import type { WorkbenchError } from './errors';

/** An answer as data: a value, or the error (never a thrown Error, which no bridge carries whole). */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: WorkbenchError };

export type CallReply = Reply<unknown>;

export type ClientMessage =
  /** `opId`: the caller-made id that `ops.cancel` can name (omitted: the call cannot be cancelled). */
  | { t: 'call'; id: number; method: string; input: unknown; opId?: string }
  | { t: 'stream'; id: number; method: string; input: unknown; streamId: string };

export type ServerMessage =
  | { t: 'reply'; id: number; reply: CallReply }
  | { t: 'chunk'; streamId: string; chunk: unknown }
  | { t: 'end'; streamId: string; reply: CallReply }
  /** `key`: a keyed event, sent only to the tabs subscribed to that key. */
  | { t: 'event'; channel: string; payload: unknown; key?: string };

/** Electron IPC channels for stream chunks and stream ends (events use their own channel names). */
export const IPC_STREAM_CHUNK = 'workbench:stream-chunk';
export const IPC_STREAM_END = 'workbench:stream-end';
/**
 * Page -> main over Electron IPC: `(streamId, chunks, bytes)` delivered to the page's code. Main
 * keeps at most IPC_STREAM_WINDOW of a stream's chunks unacknowledged (main/electron/stream-credits.ts),
 * so a page that stops reading (a blocked renderer) makes a session's `emit` wait, as the
 * browser-mode socket's bufferedAmount does.
 */
export const IPC_STREAM_ACK = 'workbench:stream-ack';
export const IPC_STREAM_WINDOW = { bytes: 4 * 1024 * 1024, chunks: 256 } as const;

/**
 * Largest WebSocket message (text or binary frame) the browser-mode server accepts. Bytes go in
 * messages of about BYTES_PER_MESSAGE (1 MiB), so 16 MiB leaves room without letting one frame
 * hold a whole file in memory.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Back-pressure threshold of either side of the WebSocket: a writer waits while the socket's
 * `bufferedAmount` is above this (session chunks in main, every outgoing message in the page).
 */
export const SOCKET_HIGH_WATER_BYTES = 4 * 1024 * 1024;

/** Inbound session messages a handler may have accepted but not yet read; `ops.send` waits beyond. */
export const SESSION_INBOUND_QUEUE = 4;

/** `send()`s a page keeps in flight per session (unanswered `ops.send`); the rest wait in the page. */
export const SESSION_SEND_WINDOW = 4;

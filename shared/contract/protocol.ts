/**
 * Messages of the browser-mode WebSocket transport. (Electron IPC carries the same payloads over
 * per-channel `invoke` and `webContents.send`.) A call's reply is `{ok, value}` or `{ok:false, error}`
 * so errors survive the crossing as values.
 */
import type { WorkbenchError } from './errors';

export type CallReply = { ok: true; value: unknown } | { ok: false; error: WorkbenchError };

export type ClientMessage =
  | { t: 'call'; id: number; method: string; input: unknown }
  | { t: 'stream'; id: number; method: string; input: unknown; streamId: string };

export type ServerMessage =
  | { t: 'reply'; id: number; reply: CallReply }
  | { t: 'chunk'; streamId: string; chunk: unknown }
  | { t: 'end'; streamId: string; reply: CallReply }
  | { t: 'event'; channel: string; payload: unknown };

/** Electron IPC channels for stream chunks and stream ends (events use their own channel names). */
export const IPC_STREAM_CHUNK = 'workbench:stream-chunk';
export const IPC_STREAM_END = 'workbench:stream-end';

/** Largest WebSocket message the browser-mode server accepts (an upload goes by path, not bytes). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

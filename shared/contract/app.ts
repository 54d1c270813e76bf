/**
 * App-level operations: what shell we run in, where data lives, and the host's own operations on
 * running calls, streams and sessions (cancel, and a session's inbound side: send and close).
 */
import { z } from 'zod';
import { call } from './define';

export interface AppInfo {
  version: string;
  shell: 'electron' | 'browser';
  platform: string;
  dataDir: string;
  /** The log file (`<dataDir>/logs/workbench.log`), so the page can name it. */
  logPath: string;
  /** Largest file the app uploads (checked before sending): 50 MB, or WORKBENCH_SANDBOX_MAX_FILE_BYTES. */
  maxUploadBytes: number;
  /**
   * The built-in sandbox's API key file (`<dataDir>/sandbox/key`): the app sends the key itself,
   * but code a user runs outside it (a History code export) needs the key from here.
   */
  sandboxKeyPath: string;
}

/** What `app.openLog` did: Electron opens the file; browser mode cannot, and the page shows `path`. */
export interface OpenLogResult {
  opened: boolean;
  path: string;
}

export const appContract = {
  info: call<AppInfo>()(z.object({}).strict().optional()),
  openLog: call<OpenLogResult>()(z.object({}).strict().optional()),
};

/**
 * Operation ids (calls, streams, sessions) are made by the caller, so no chunk can arrive and no
 * cancel can be needed before the caller knows the id. One namespace per window/tab.
 */
export const OpIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'operation id must be 8-64 URL-safe characters');
/** The same rule, under the name streams have always used. */
export const StreamIdSchema = OpIdSchema;

const KeyedSubscriptionSchema = z.object({ channel: z.string().min(3).max(200), key: z.string().min(1).max(200) }).strict();

/** Kept for callers that know only streams; `ops.cancel` does the same for any operation. */
export const streamsContract = {
  cancel: call<{ cancelled: boolean }>()(z.object({ streamId: StreamIdSchema }).strict()),
};

/**
 * Answered by the host itself, never by a handler. Only the window/tab that started an operation
 * may touch it; any other id looks not found (`cancel` answers `{cancelled: false}`).
 */
export const opsContract = {
  /** Aborts a running call, stream or session of this window/tab. */
  cancel: call<{ cancelled: boolean }>()(z.object({ id: OpIdSchema }).strict()),
  /**
   * One inbound message for a running session; validated with the session's message schema.
   * Answers once the session has room for it (back-pressure), so a sender cannot outrun it.
   */
  send: call<null>()(z.object({ id: OpIdSchema, message: z.unknown() }).strict()),
  /** Ends a session's inbound side normally (the handler's message iterator finishes). */
  close: call<null>()(z.object({ id: OpIdSchema }).strict()),
  /**
   * This window/tab receives keyed event `channel` for `key` from now on (until it unsubscribes
   * or goes away; a reload or a new socket starts with none). At most 1024 at once.
   */
  subscribe: call<null>()(KeyedSubscriptionSchema),
  unsubscribe: call<null>()(KeyedSubscriptionSchema),
};

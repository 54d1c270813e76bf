/**
 * The control protocol between main and the media process: typed, validated with zod on both
 * sides (each trusts the other no more than a socket), carried by Node's IPC channel (a forked
 * child) or Electron's `parentPort` (a utility process). Requests carry an id and are answered
 * with a `Reply` (errors as values). Media frames never travel here: they go page <-> media
 * process directly (frame-server.ts, or a MessagePort in Electron).
 */
import { z } from 'zod';
import { WorkbenchErrorSchema, type WorkbenchError } from '../../shared/contract/errors';
import type { Reply } from '../../shared/contract/protocol';
import { NativeAudioDevicesSchema } from '../../shared/contract/audio';

/** A media session's id: main's (a live session's id, or a test's). */
export const MediaSessionIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'a media session id is 1-128 URL-safe characters');

/** What `start` answers: the session's streams by name, each a frame stream id. */
export interface MediaSessionStarted {
  sessionId: string;
  kind: string;
  streams: Record<string, number>;
}

/** What main tells a freshly started (or restarted) media process. */
export const MediaConfigSchema = z
  .object({
    /**
     * Browser mode: serve the page's frame channel on 127.0.0.1 to these Origins (main's own
     * page). Absent in Electron, where pages get a MessagePort instead.
     */
    frameServer: z
      .object({
        origins: z.array(z.string().max(200)).max(8),
        /** The port to listen on (the previous process's, so the page's CSP still allows it); 0 = any. */
        port: z.number().int().min(0).max(65535).default(0),
      })
      .strict()
      .optional(),
  })
  .strict();
export type MediaConfig = z.infer<typeof MediaConfigSchema>;

const id = z.number().int().nonnegative();

export const ToMediaSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('configure'), id, config: MediaConfigSchema }).strict(),
  z.object({ t: z.literal('start'), id, sessionId: MediaSessionIdSchema, kind: z.string().min(1).max(64), options: z.unknown() }).strict(),
  z.object({ t: z.literal('stop'), id, sessionId: MediaSessionIdSchema }).strict(),
  /** A kind's own control message (mute, finalize): the kind validates `message` itself. */
  z.object({ t: z.literal('control'), id, sessionId: MediaSessionIdSchema, message: z.unknown() }).strict(),
  /** Clock sample: `t0` on main's monotonic clock. */
  z.object({ t: z.literal('ping'), id, t0: z.number() }).strict(),
  /** The native audio devices (answered with `NativeAudioDevices`); the first one starts hot-plug watching. */
  z.object({ t: z.literal('devices'), id }).strict(),
  /** Electron: a page's MessagePort comes with this message (transferred), named `channelId`. */
  z.object({ t: z.literal('port'), channelId: z.string().min(1).max(64) }).strict(),
  z.object({ t: z.literal('shutdown') }).strict(),
]);
export type ToMedia = z.infer<typeof ToMediaSchema>;

const ReplySchema = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ ok: z.literal(false), error: WorkbenchErrorSchema }).strict(),
]);

export const FromMediaSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('ready'), pid: z.number().int() }).strict(),
  z.object({ t: z.literal('reply'), id, reply: ReplySchema }).strict(),
  z.object({ t: z.literal('pong'), id, t0: z.number(), t1: z.number(), t2: z.number() }).strict(),
  /**
   * Something a session did, for main to record (levels, marks, stats, kind-specific events):
   * `at` is the media process's monotonic ms.
   */
  z.object({ t: z.literal('event'), sessionId: MediaSessionIdSchema, type: z.string().min(1).max(64), at: z.number(), data: z.unknown() }).strict(),
  /** A session ended by itself (its source finished, or it failed: `error`). */
  z.object({ t: z.literal('ended'), sessionId: MediaSessionIdSchema, error: WorkbenchErrorSchema.optional() }).strict(),
  z.object({ t: z.literal('log'), line: z.string().max(4000) }).strict(),
  /** The native device list changed (hot-plug, a new default), once `devices` has been asked. */
  z.object({ t: z.literal('devices-changed'), devices: NativeAudioDevicesSchema }).strict(),
]);
export type FromMedia = z.infer<typeof FromMediaSchema>;

/** What `configure` answers: where the page's frame channel is (browser mode). */
export interface MediaConfigured {
  frameServer?: { port: number; token: string };
}

export function failure(code: WorkbenchError['code'], message: string): Reply<never> {
  return { ok: false, error: { code, message } };
}

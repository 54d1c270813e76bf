/**
 * What runs inside the media process: media sessions of registered kinds. A kind is a module
 * (the synthetic source here; main/audio's capture and playback, the service sockets of live
 * sessions next) that validates its own options and drives its streams through the context it is
 * given; the process itself knows nothing about audio. `kinds.ts` lists the kinds the process loads.
 */
import type { z } from 'zod';
import type { FrameKind, MediaFrame } from '../../shared/media-frames/frame';
import type { ReceiverCounters } from '../../shared/media-frames/receiver';
import type { Reply } from '../../shared/contract/protocol';
import type { AudioResult } from '../../shared/audio/errors';
import type { AudioBackend } from '../audio/types';

/** A stream the session sends on (media process -> subscribed pages). */
export interface OutputStream {
  readonly id: number;
  /** Sends one frame (sequence number and timestamp are added); never blocks, never throws for load. */
  send(kind: FrameKind, payload: Uint8Array, timestamp?: number): void;
  /** Page channels subscribed to it now. */
  subscribers(): number;
}

/** How old an inbound frame was on arrival (ms), once the sender's clock offset is known. */
export interface InboundInfo {
  ageMs?: number;
}

export interface MediaSessionContext {
  readonly sessionId: string;
  /** The process's monotonic clock (shared/media-frames/clock.ts). */
  now(): number;
  openOutput(name: string): OutputStream;
  /** Frames pages send on this stream reach `onFrame`, in arrival order. */
  openInput(name: string, onFrame: (frame: MediaFrame, info: InboundInfo) => void): { readonly id: number; stats(): ReceiverCounters };
  /** An event up to main (recorded there): keep `data` small and plain. */
  event(type: string, data?: unknown): void;
  /** The session ends itself (finished, or failed with `error`); stop() is not called after. */
  end(error?: { code: 'internal' | 'network' | 'unsupported' | 'timeout'; message: string }): void;
  log(line: string): void;
  /** The process's native audio backend (loaded on first use, shared with the device list). */
  audioBackend(): Promise<AudioResult<AudioBackend>>;
}

export interface MediaSession {
  /** Ends the session at main's request; resolves once its streams are quiet. */
  stop(): void | Promise<void>;
  /** A control message from main (mute, finalize), unvalidated: the kind checks it. */
  control?(message: unknown): Reply<unknown> | void | Promise<Reply<unknown> | void>;
}

export interface MediaSessionKind<O = unknown> {
  readonly kind: string;
  readonly options: z.ZodType<O>;
  start(ctx: MediaSessionContext, options: O): MediaSession | Promise<MediaSession>;
}

/** Declares a kind with its options' type checked against its schema. */
export function defineKind<O>(kind: MediaSessionKind<O>): MediaSessionKind<O> {
  return kind;
}

export class SessionKinds {
  private readonly kinds = new Map<string, MediaSessionKind<unknown>>();

  register<O>(kind: MediaSessionKind<O>): this {
    if (this.kinds.has(kind.kind)) throw new Error(`The media session kind "${kind.kind}" is registered twice.`);
    this.kinds.set(kind.kind, kind as unknown as MediaSessionKind<unknown>);
    return this;
  }

  get(kind: string): MediaSessionKind<unknown> | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }
}

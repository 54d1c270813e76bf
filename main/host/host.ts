/**
 * The contract's server side, independent of transport: validates every input with the
 * operation's schema, runs the handler, turns failures into error values, owns the running
 * streams of each session (window or browser tab) and broadcasts events. The Electron IPC gate
 * and the browser-mode WebSocket server are both thin adapters over this.
 */
import { streamsContract, StreamIdSchema } from '../../shared/contract/app';
import type { Contract } from '../../shared/contract/define';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { WorkbenchContract } from '../../shared/contract/index';
import type { CallReply } from '../../shared/contract/protocol';
import type { HandlersFor } from './handlers';
import { buildRegistry, type RegisteredOp } from './registry';
import { parseInput } from './validate';

/** One caller: an Electron window or a browser tab's WebSocket. */
export interface HostSession {
  readonly id: string;
  sendChunk(streamId: string, chunk: unknown): void;
  sendEvent(channel: string, payload: unknown): void;
}

export interface Host {
  /** Runs a call operation; never rejects (failures come back as `{ok:false}`). */
  call(session: HostSession, channel: string, input: unknown): Promise<CallReply>;
  /** Runs a stream operation; chunks go to `session.sendChunk`; resolves with the end reply. */
  stream(session: HostSession, channel: string, input: unknown, streamId: string): Promise<CallReply>;
  /** Pushes an event to every attached session. */
  emit(channel: string, payload: unknown): void;
  /** Starts delivering events to a session; the returned function detaches it and cancels its streams. */
  attach(session: HostSession): () => void;
  /** Cancels every stream and forgets every session. */
  dispose(): void;
}

export interface HostOptions {
  contract: Contract;
  handlers: HandlersFor<WorkbenchContract>;
  log?: (line: string) => void;
  /** Where the log is, so an internal error can tell the user where to look. */
  logPath?: string;
}

interface RunningStream {
  readonly controller: AbortController;
  /** Set when the session went away: late chunks are dropped instead of sent into the void. */
  dropped: boolean;
}

const CANCEL_CHANNEL = 'streams.cancel';

function failure(error: WorkbenchError): CallReply {
  return { ok: false, error };
}

export function createHost(options: HostOptions): Host {
  const log = options.log ?? (() => {});
  const where = options.logPath ? ` (${options.logPath})` : '';
  const registry = buildRegistry(options.contract, options.handlers);
  const sessions = new Set<HostSession>();
  const streamsBySession = new Map<string, Map<string, RunningStream>>();

  function toErrorReply(channel: string, err: unknown, signal?: AbortSignal): CallReply {
    if (err instanceof WorkbenchFailure) return failure(err.error);
    if (signal?.aborted) return failure({ code: 'cancelled', message: `${channel} was cancelled.` });
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    log(`[host] ${channel} failed: ${detail}`);
    return failure({
      code: 'internal',
      message: `The workbench hit an internal error while handling ${channel}. The details are in its log${where}.`,
    });
  }

  function lookup(channel: string, kind: 'call' | 'stream'): RegisteredOp | WorkbenchError {
    const op = registry.get(channel);
    if (!op) return { code: 'unknown_method', message: `There is no operation named "${channel}".` };
    if (op.kind !== kind) {
      const how = op.kind === 'stream' ? 'a stream' : 'a call';
      return { code: 'unknown_method', message: `${channel} must be started as ${how}.` };
    }
    return op;
  }

  function cancel(session: HostSession, input: unknown): CallReply {
    const parsed = parseInput(CANCEL_CHANNEL, streamsContract.cancel.input, input);
    if (!parsed.ok) return parsed;
    // Only the session that started a stream may stop it; anything else looks like "not found".
    const running = streamsBySession.get(session.id)?.get(parsed.value.streamId);
    if (!running || running.controller.signal.aborted) return { ok: true, value: { cancelled: false } };
    running.controller.abort();
    return { ok: true, value: { cancelled: true } };
  }

  async function call(session: HostSession, channel: string, input: unknown): Promise<CallReply> {
    if (channel === CANCEL_CHANNEL) return cancel(session, input);
    const op = lookup(channel, 'call');
    if (!('handler' in op)) return failure(op);
    const parsed = parseInput(channel, op.input, input);
    if (!parsed.ok) return parsed;
    try {
      const handler = op.handler as (input: unknown, ctx: { sessionId: string }) => unknown;
      return { ok: true, value: await handler(parsed.value, { sessionId: session.id }) };
    } catch (err) {
      return toErrorReply(channel, err);
    }
  }

  async function stream(session: HostSession, channel: string, input: unknown, streamId: string): Promise<CallReply> {
    const op = lookup(channel, 'stream');
    if (!('handler' in op)) return failure(op);
    const id = parseInput(`${channel} (stream id)`, StreamIdSchema, streamId);
    if (!id.ok) return id;
    let own = streamsBySession.get(session.id);
    if (own?.has(id.value)) {
      return failure({ code: 'invalid_input', message: `Stream id ${id.value} is already in use by a running stream.` });
    }
    const parsed = parseInput(channel, op.input, input);
    if (!parsed.ok) return parsed;

    if (!own) streamsBySession.set(session.id, (own = new Map()));
    const running: RunningStream = { controller: new AbortController(), dropped: false };
    own.set(id.value, running);
    let ended = false;
    const ctx = {
      sessionId: session.id,
      streamId: id.value,
      signal: running.controller.signal,
      emit(chunk: unknown) {
        if (ended || running.dropped) return;
        try {
          session.sendChunk(id.value, chunk);
        } catch (err) {
          log(`[host] could not deliver a ${channel} chunk: ${err instanceof Error ? err.message : String(err)}`);
        }
      },
    };
    try {
      const handler = op.handler as (input: unknown, ctx: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.value, ctx) };
    } catch (err) {
      return toErrorReply(channel, err, running.controller.signal);
    } finally {
      ended = true;
      own.delete(id.value);
      if (own.size === 0 && streamsBySession.get(session.id) === own) streamsBySession.delete(session.id);
    }
  }

  function cancelSessionStreams(sessionId: string): void {
    const own = streamsBySession.get(sessionId);
    if (!own) return;
    for (const running of own.values()) {
      running.dropped = true;
      running.controller.abort();
    }
  }

  return {
    call,
    stream,
    emit(channel, payload) {
      for (const session of sessions) {
        try {
          session.sendEvent(channel, payload);
        } catch (err) {
          log(`[host] could not deliver ${channel} to ${session.id}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    },
    attach(session) {
      sessions.add(session);
      let attached = true;
      return () => {
        if (!attached) return;
        attached = false;
        sessions.delete(session);
        cancelSessionStreams(session.id);
      };
    },
    dispose() {
      for (const id of [...streamsBySession.keys()]) cancelSessionStreams(id);
      sessions.clear();
    },
  };
}

/**
 * The contract's server side, independent of transport: validates every input with the
 * operation's schema, runs the handler, turns failures into error values, owns the running
 * calls, streams and sessions of each host session (window or browser tab) and broadcasts
 * events. The Electron IPC gate and the browser-mode WebSocket server are both thin adapters
 * over this. `streams.cancel` and `ops.*` are answered here (host-ops.ts), not by handlers.
 */
import { OpIdSchema, opsContract } from '../../shared/contract/app';
import { keyedEventChannels, type Contract } from '../../shared/contract/define';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import type { WorkbenchContract } from '../../shared/contract/index';
import { SESSION_INBOUND_QUEUE, type CallReply } from '../../shared/contract/protocol';
import type { HandlersFor, TypedEmit, TypedKeyedEmit } from './handlers';
import { answerHostCall } from './host-ops';
import { InboundQueue } from './inbound-queue';
import { KeyedSubscriptions } from './keyed-subscriptions';
import { buildRegistry, HOST_CHANNELS, type RegisteredOp } from './registry';
import { RunningOps, type RunningOp } from './running-ops';
import { parseInput } from './validate';

/** One caller: an Electron window or a browser tab's WebSocket. */
export interface HostSession {
  readonly id: string;
  /**
   * Delivers a stream or session chunk. May return a promise that settles once the transport can
   * take more (browser mode: the socket drained below its high-water mark); sessions' `emit` waits
   * for it.
   */
  sendChunk(streamId: string, chunk: unknown): void | Promise<void>;
  /** Delivers an event; `key` for a keyed event (sent only to sessions subscribed to it). */
  sendEvent(channel: string, payload: unknown, key?: string): void;
}

export interface Host<C extends Contract = WorkbenchContract> {
  /** Runs a call operation; never rejects (failures come back as `{ok:false}`). `opId` makes it cancellable. */
  call(session: HostSession, channel: string, input: unknown, opId?: string): Promise<CallReply>;
  /** Runs a stream or session operation; chunks go to `session.sendChunk`; resolves with the end reply. */
  stream(session: HostSession, channel: string, input: unknown, streamId: string): Promise<CallReply>;
  /** Pushes a declared event to every attached session. */
  emit: TypedEmit<C>;
  /** Pushes a keyed event to the attached sessions subscribed to its key (`ops.subscribe`). */
  emitKeyed: TypedKeyedEmit<C>;
  /** Keyed subscriptions held by all sessions (tests, diagnostics). */
  keyedSubscriptions(): number;
  /** Starts delivering events to a session; the returned function detaches it and aborts all it runs. */
  attach(session: HostSession): () => void;
  /** Aborts everything running and forgets every session. */
  dispose(): void;
}

/** The part of a host a transport adapter uses (any contract: adapters never emit typed events). */
export type HostPort = Pick<Host<Contract>, 'call' | 'stream' | 'attach'>;

export interface HostOptions<C extends Contract> {
  contract: C;
  handlers: HandlersFor<C>;
  log?: (line: string) => void;
  /** Where the log is, so an internal error can tell the user where to look. */
  logPath?: string;
}

/** Pushes an ops.send may leave waiting beyond the queue (the page keeps SESSION_SEND_WINDOW). */
const MAX_WAITING_SENDS = 16;

function failure(error: WorkbenchError): CallReply {
  return { ok: false, error };
}

export function createHost<C extends Contract>(options: HostOptions<C>): Host<C> {
  const log = options.log ?? (() => {});
  const where = options.logPath ? ` (${options.logPath})` : '';
  const registry = buildRegistry(options.contract, options.handlers);
  const sessions = new Set<HostSession>();
  const running = new RunningOps();
  const keyed = new KeyedSubscriptions<HostSession>(keyedEventChannels(options.contract));
  let anonymous = 0;

  /** `ops.subscribe` / `ops.unsubscribe`: the calling session's keyed subscriptions. */
  function subscription(session: HostSession, channel: 'ops.subscribe' | 'ops.unsubscribe', input: unknown): CallReply {
    const parsed = parseInput(channel, opsContract.subscribe.input, input);
    if (!parsed.ok) return parsed;
    const { channel: event, key } = parsed.value;
    if (channel === 'ops.unsubscribe') {
      keyed.unsubscribe(session, event, key);
      return { ok: true, value: null };
    }
    // A session that is not attached (gone, or between a reload's detach and attach) gets nothing.
    if (!sessions.has(session)) return failure({ code: 'not_found', message: 'This window is not attached to the workbench.' });
    const refused = keyed.subscribe(session, event, key);
    return refused ? failure(refused) : { ok: true, value: null };
  }

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

  function lookup(channel: string, kinds: ReadonlyArray<RegisteredOp['kind']>): RegisteredOp | WorkbenchError {
    const op = registry.get(channel);
    if (!op) return { code: 'unknown_method', message: `There is no operation named "${channel}".` };
    if (!kinds.includes(op.kind)) {
      const how = op.kind === 'call' ? 'a call' : `a ${op.kind}`;
      return { code: 'unknown_method', message: `${channel} must be started as ${how}.` };
    }
    return op;
  }

  /** Registers a new operation under a caller-made id, refusing a malformed or busy one. */
  function register(session: HostSession, channel: string, id: string, op: RunningOp): WorkbenchError | null {
    const parsed = parseInput(`${channel} (operation id)`, OpIdSchema, id);
    if (!parsed.ok) return parsed.error;
    if (running.get(session.id, id)) {
      return { code: 'invalid_input', message: `Operation id ${id} is already in use by a running operation.` };
    }
    running.add(session.id, id, op);
    return null;
  }

  async function call(session: HostSession, channel: string, input: unknown, opId?: string): Promise<CallReply> {
    if (channel === 'ops.subscribe' || channel === 'ops.unsubscribe') return subscription(session, channel, input);
    if (HOST_CHANNELS.has(channel)) return answerHostCall(running, session.id, channel, input);
    const op = lookup(channel, ['call']);
    if (!('handler' in op)) return failure(op);
    const parsed = parseInput(channel, op.input, input);
    if (!parsed.ok) return parsed;
    const entry: RunningOp = { channel, controller: new AbortController(), dropped: false };
    // A call without an id cannot be cancelled by the page, but is still aborted when it goes away.
    const id = opId ?? `#${++anonymous}`;
    if (opId === undefined) running.add(session.id, id, entry);
    else {
      const refused = register(session, channel, id, entry);
      if (refused) return failure(refused);
    }
    const signal = entry.controller.signal;
    try {
      const handler = op.handler as (input: unknown, ctx: unknown) => unknown;
      return { ok: true, value: await handler(parsed.value, { sessionId: session.id, signal }) };
    } catch (err) {
      return toErrorReply(channel, err, signal);
    } finally {
      running.remove(session.id, id, entry);
    }
  }

  async function stream(session: HostSession, channel: string, input: unknown, streamId: string): Promise<CallReply> {
    const op = lookup(channel, ['stream', 'session']);
    if (!('handler' in op)) return failure(op);
    const idCheck = parseInput(`${channel} (operation id)`, OpIdSchema, streamId);
    if (!idCheck.ok) return idCheck;
    if (running.get(session.id, streamId)) {
      return failure({ code: 'invalid_input', message: `Stream id ${streamId} is already in use by a running stream.` });
    }
    const parsed = parseInput(channel, op.input, input);
    if (!parsed.ok) return parsed;

    const isSession = op.kind === 'session';
    const inbound = isSession ? new InboundQueue<unknown>(SESSION_INBOUND_QUEUE, MAX_WAITING_SENDS) : undefined;
    const entry: RunningOp = { channel, controller: new AbortController(), dropped: false, inbound, messageSchema: op.message };
    const refused = register(session, channel, streamId, entry);
    if (refused) return failure(refused);
    const signal = entry.controller.signal;
    // Cancelled or gone: the handler's message iterator ends at once.
    signal.addEventListener('abort', () => inbound?.abort(), { once: true });
    let ended = false;
    /** Chunks handed over while the transport was above its high-water mark, not yet drained. */
    let backlog = 0;
    const deliver = (chunk: unknown): Promise<void> => {
      if (ended || entry.dropped) return Promise.resolve();
      const report = (err: unknown) =>
        log(`[host] could not deliver a ${channel} chunk: ${err instanceof Error ? err.message : String(err)}`);
      let accepted: void | Promise<void>;
      try {
        accepted = session.sendChunk(streamId, chunk);
      } catch (err) {
        report(err);
        return Promise.resolve();
      }
      if (!accepted) return Promise.resolve();
      backlog++;
      // A cancelled handler must not stay parked behind a page that stopped reading.
      return new Promise<void>((resolve) => {
        let counted = true;
        const done = () => {
          if (counted) backlog--;
          counted = false;
          signal.removeEventListener('abort', done);
          resolve();
        };
        signal.addEventListener('abort', done, { once: true });
        accepted.then(done, (err: unknown) => {
          report(err);
          done();
        });
        if (signal.aborted) done();
      });
    };
    const base = { sessionId: session.id, signal };
    const ctx = isSession
      ? {
          ...base,
          opId: streamId,
          messages: inbound,
          emit: deliver,
          backlog: () => backlog,
          validateMessagesWith: (schema: unknown) => void (entry.handlerSchema = schema as RunningOp['handlerSchema']),
        }
      : { ...base, streamId, emit: (chunk: unknown) => void deliver(chunk) };
    try {
      const handler = op.handler as (input: unknown, ctx: unknown) => Promise<unknown>;
      return { ok: true, value: await handler(parsed.value, ctx) };
    } catch (err) {
      return toErrorReply(channel, err, signal);
    } finally {
      ended = true;
      inbound?.abort();
      running.remove(session.id, streamId, entry);
    }
  }

  const emit = ((channel: string, payload: unknown) => {
    for (const session of sessions) {
      try {
        session.sendEvent(channel, payload);
      } catch (err) {
        log(`[host] could not deliver ${channel} to ${session.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }) as TypedEmit<C>;

  const emitKeyed = ((channel: string, key: string, payload: unknown) => {
    for (const session of keyed.subscribers(channel, key)) {
      try {
        session.sendEvent(channel, payload, key);
      } catch (err) {
        log(`[host] could not deliver ${channel} to ${session.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }) as TypedKeyedEmit<C>;

  return {
    call,
    stream,
    emit,
    emitKeyed,
    keyedSubscriptions: () => keyed.size(),
    attach(session) {
      sessions.add(session);
      let attached = true;
      return () => {
        if (!attached) return;
        attached = false;
        sessions.delete(session);
        keyed.drop(session);
        running.abortSession(session.id);
      };
    },
    dispose() {
      running.abortAll();
      for (const session of sessions) keyed.drop(session);
      sessions.clear();
    },
  };
}

/**
 * The registry of live sessions: owned by main, outliving every window. A session is started by
 * a window or by main itself, has any number of attachments (windows: a snapshot first, then
 * every event, numbered), keeps running with none, and ends once: stopped, ended by itself, or
 * at app quit (`shutdown`), each time through its kind's `stop` finaliser, awaited.
 */
import { randomBytes } from 'node:crypto';
import type { LiveAttachChunk, LiveEndReason, LiveOrigin, LiveSessionSummary, LiveStatus } from '../../shared/contract/live';
import { WorkbenchFailure, type WorkbenchError } from '../../shared/contract/errors';
import { parseInput } from '../host/validate';
import type { LiveContext, LiveInstance, LiveKind } from './kind';

/** Where one attachment's chunks go. Both are called synchronously, in order; neither may throw into the session. */
export interface LiveSink {
  deliver(chunk: LiveAttachChunk): void;
  /** The session ended (the last chunk this sink gets). */
  ended(summary: LiveSessionSummary): void;
}

export interface LiveAttachment {
  /** Stops delivering to this sink; the session keeps running. */
  detach(): void;
  /** Validates `message` with the kind's control schema and hands it to the session. */
  control(message: unknown): Promise<void>;
  /** A fresh snapshot chunk (for an attachment that fell behind and skipped events). */
  snapshot(): LiveAttachChunk;
}

export interface LiveRegistryOptions {
  kinds: ReadonlyArray<LiveKind>;
  /** `live.changed`: every start, status or state change, attach/detach, and end. */
  onChange(summary: LiveSessionSummary): void;
  log?(line: string): void;
  now?(): number;
  /**
   * How long `shutdown` waits for the finalisers before letting the app quit anyway (default
   * 15 s): a finaliser stuck on a dead disk must not keep the app from ever quitting. What it had
   * written stays on disk for the next start to finalise.
   */
  shutdownTimeoutMs?: number;
}

export interface LiveRegistry {
  /** Validates `input` with the kind's schema, starts the session and answers its id once it runs. */
  start(kind: string, input: unknown, options: { origin: LiveOrigin }): Promise<string>;
  /** Attaches a sink: it gets a snapshot at once, then every event. Throws not_found for an unknown or ended id. */
  attach(id: string, sink: LiveSink): Promise<LiveAttachment>;
  /** Ends a session and waits for its finaliser; answers the final summary. */
  stop(id: string): Promise<LiveSessionSummary>;
  /** The kind a running session is of (to validate its control messages early). */
  kindOf(id: string): LiveKind | null;
  summary(id: string): LiveSessionSummary | null;
  list(): LiveSessionSummary[];
  /** App quit: refuses new sessions, ends every one with reason 'shutdown' and awaits each finaliser. */
  shutdown(): Promise<void>;
}

interface Entry {
  readonly id: string;
  readonly kind: LiveKind;
  readonly origin: LiveOrigin;
  readonly startedAt: number;
  readonly controller: AbortController;
  readonly sinks: Set<LiveSink>;
  status: LiveStatus;
  state: string | null;
  endedAt: number | null;
  endReason: LiveEndReason | null;
  error: WorkbenchError | null;
  /** Number of the last event emitted (0: none yet). */
  seq: number;
  instance: LiveInstance<unknown, unknown> | null;
  /** Settles when `kind.start` has (either way). */
  ready: Promise<void>;
  finishing: Promise<LiveSessionSummary> | null;
}

export function newLiveSessionId(): string {
  return `live_${randomBytes(16).toString('base64url')}`;
}

function notFound(id: string): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'not_found', message: `There is no live session ${id}: it has ended, or never existed.` });
}

function errorOf(err: unknown, what: string): WorkbenchError {
  if (err instanceof WorkbenchFailure) return err.error;
  return { code: 'internal', message: `${what} failed. The details are in the workbench's log.` };
}

export function createLiveRegistry(options: LiveRegistryOptions): LiveRegistry {
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const kinds = new Map(options.kinds.map((kind) => [kind.id, kind]));
  const entries = new Map<string, Entry>();
  let shuttingDown = false;

  const summarise = (e: Entry): LiveSessionSummary => ({
    id: e.id,
    kind: e.kind.id,
    origin: e.origin,
    status: e.status,
    state: e.state,
    startedAt: e.startedAt,
    endedAt: e.endedAt,
    endReason: e.endReason,
    error: e.error,
    attachments: e.sinks.size,
  });

  function deliver(e: Entry, chunk: LiveAttachChunk): void {
    for (const sink of [...e.sinks]) {
      try {
        sink.deliver(chunk);
      } catch (err) {
        log(`[live] ${e.id}: an attachment refused a chunk: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  /** Tells every window (`live.changed`) and, for a status or state change, the attachments. */
  function announce(e: Entry, toSinks: boolean): void {
    const summary = summarise(e);
    if (toSinks) deliver(e, { type: 'state', session: summary });
    try {
      options.onChange(summary);
    } catch (err) {
      log(`[live] could not announce ${e.id}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The one way a session ends: abort its signal, await its finaliser, tell everyone, forget it. */
  function finish(e: Entry, reason: LiveEndReason, error: WorkbenchError | null = null): Promise<LiveSessionSummary> {
    if (e.finishing) return e.finishing;
    e.finishing = (async () => {
      e.status = 'stopping';
      if (error) e.error = error;
      announce(e, true);
      e.controller.abort();
      await e.ready;
      if (e.instance) {
        try {
          await e.instance.stop(reason);
        } catch (err) {
          log(`[live] ${e.id} (${e.kind.id}): its finaliser failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          e.error ??= errorOf(err, `Finishing the ${e.kind.id} session`);
        }
      }
      e.status = 'ended';
      e.endedAt = now();
      e.endReason = reason;
      entries.delete(e.id);
      const summary = summarise(e);
      announce(e, false);
      const sinks = [...e.sinks];
      e.sinks.clear();
      for (const sink of sinks) {
        try {
          sink.ended(summary);
        } catch (err) {
          log(`[live] ${e.id}: an attachment failed at the end: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      return summary;
    })();
    return e.finishing;
  }

  async function start(kindId: string, input: unknown, startOptions: { origin: LiveOrigin }): Promise<string> {
    if (shuttingDown) {
      throw new WorkbenchFailure({ code: 'cancelled', message: 'The workbench is quitting: no live session can start now.' });
    }
    const kind = kinds.get(kindId);
    if (!kind) {
      const known = [...kinds.keys()].join(', ') || 'none';
      throw new WorkbenchFailure({
        code: 'invalid_input',
        message: `There is no live session kind "${kindId}" (known: ${known}).`,
        issues: [{ path: 'kind', message: 'unknown live session kind' }],
      });
    }
    const parsed = parseInput(`live.start (${kindId} input)`, kind.input, input);
    if (!parsed.ok) throw new WorkbenchFailure(parsed.error);

    let started!: () => void;
    const e: Entry = {
      id: newLiveSessionId(),
      kind,
      origin: startOptions.origin,
      startedAt: now(),
      controller: new AbortController(),
      sinks: new Set(),
      status: 'starting',
      state: null,
      endedAt: null,
      endReason: null,
      error: null,
      seq: 0,
      instance: null,
      ready: new Promise<void>((resolve) => (started = resolve)),
      finishing: null,
    };
    entries.set(e.id, e);
    announce(e, false);
    const ctx: LiveContext<unknown, unknown> = {
      id: e.id,
      input: parsed.value,
      origin: e.origin,
      signal: e.controller.signal,
      emit(event) {
        if (e.status === 'ended') return;
        e.seq++;
        deliver(e, { type: 'event', seq: e.seq, event });
      },
      setState(state) {
        if (e.status === 'ended' || e.state === state) return;
        e.state = state;
        announce(e, true);
      },
      end(error) {
        void finish(e, error ? 'failed' : 'ended', error ?? null);
      },
      log: (line) => log(`[live] ${e.id} (${kind.id}): ${line}`),
    };
    try {
      e.instance = (await kind.start(ctx)) as LiveInstance<unknown, unknown>;
    } catch (err) {
      log(`[live] ${e.id} (${kind.id}) did not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      started();
      await finish(e, 'failed', errorOf(err, `Starting the ${kind.id} session`));
      throw err instanceof WorkbenchFailure ? err : new WorkbenchFailure(errorOf(err, `Starting the ${kind.id} session`));
    }
    started();
    // Stopped (or quit) while it was starting: the finaliser runs now that there is an instance.
    if (e.finishing) {
      await e.finishing;
      throw new WorkbenchFailure({ code: 'cancelled', message: `The ${kind.id} session was stopped while it was starting.` });
    }
    e.status = 'running';
    announce(e, true);
    return e.id;
  }

  async function attach(id: string, sink: LiveSink): Promise<LiveAttachment> {
    const e = entries.get(id);
    if (!e) throw notFound(id);
    await e.ready;
    if (!e.instance || e.finishing) throw notFound(id);
    const instance = e.instance;
    const snapshotChunk = (): LiveAttachChunk => {
      try {
        return { type: 'snapshot', session: summarise(e), seq: e.seq, snapshot: instance.snapshot() };
      } catch (err) {
        log(`[live] ${id}: snapshot failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        throw new WorkbenchFailure(errorOf(err, `Reading the ${e.kind.id} session's state`));
      }
    };
    // Synchronously with adding the sink: no event can fall between the snapshot and the next event.
    e.sinks.add(sink);
    let first: LiveAttachChunk;
    try {
      first = snapshotChunk();
    } catch (err) {
      e.sinks.delete(sink);
      throw err;
    }
    sink.deliver(first);
    announce(e, false);
    let attached = true;
    return {
      detach() {
        if (!attached) return;
        attached = false;
        if (e.sinks.delete(sink) && !e.finishing) announce(e, false);
      },
      async control(message) {
        if (!attached || e.finishing || !e.instance) throw notFound(id);
        const parsed = parseInput(`${e.kind.id} control message`, e.kind.control, message);
        if (!parsed.ok) throw new WorkbenchFailure(parsed.error);
        await e.instance.control(parsed.value);
      },
      snapshot: snapshotChunk,
    };
  }

  return {
    start,
    attach,
    async stop(id) {
      const e = entries.get(id);
      if (!e) throw notFound(id);
      return finish(e, 'stopped');
    },
    kindOf: (id) => entries.get(id)?.kind ?? null,
    summary(id) {
      const e = entries.get(id);
      return e ? summarise(e) : null;
    },
    list: () => [...entries.values()].map(summarise),
    async shutdown() {
      shuttingDown = true;
      const ending = [...entries.values()].map((e) => ({ e, done: false, finished: finish(e, 'shutdown') }));
      for (const item of ending) void item.finished.then(() => (item.done = true));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), options.shutdownTimeoutMs ?? 15_000)));
      const outcome = await Promise.race([Promise.all(ending.map((item) => item.finished)), timedOut]);
      clearTimeout(timer);
      if (outcome === 'timeout') {
        const stuck = ending.filter((item) => !item.done).map((item) => `${item.e.id} (${item.e.kind.id})`);
        log(`[live] quitting without waiting longer for the finalisers of ${stuck.join(', ')}`);
      }
    },
  };
}

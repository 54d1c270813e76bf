/**
 * A test-only family for the host and transport suites, so the contract's real families stay
 * free of fake operations: a call that waits for cancellation, sessions that echo, sink slowly
 * or flood with bytes, operations that fail with the error they are given, and an event. `testContract` is the real contract plus this family.
 */
import { z } from 'zod';
import { BytesSchema } from '../../../../shared/contract/bytes';
import { call, event, keyedEvent, session, stream } from '../../../../shared/contract/define';
import { WorkbenchErrorSchema, WorkbenchFailure } from '../../../../shared/contract/errors';
import { contract } from '../../../../shared/contract/index';
import type { FamilyHandlers } from '../../../../main/host/handlers';

export const ProbeMessageSchema = z.object({ seq: z.number().int().nonnegative(), data: BytesSchema.optional() }).strict();

export interface ProbeChunk {
  seq: number;
  data?: Uint8Array;
}

export interface ProbeResult {
  label: string;
  count: number;
  bytes: number;
}

export const probeContract = {
  /** Waits until its signal aborts (the caller cancels or goes away). */
  wait: call<{ finished: true }>()(z.object({}).strict()),
  /** Echoes each message back as a chunk (bytes reversed) until the caller closes; counts them. */
  echo: session<ProbeChunk, ProbeResult>()(z.object({ label: z.string().min(1) }).strict(), ProbeMessageSchema),
  /** Reads messages slowly (`turns` event-loop turns each), emitting nothing. */
  sink: session<never, ProbeResult>()(z.object({ turns: z.number().int().min(0).max(1000) }).strict(), ProbeMessageSchema),
  /** Emits `count` chunks of `size` bytes (byte i of chunk n is (n + i) % 251), awaiting each emit. */
  flood: session<ProbeChunk, { sent: number }>()(
    z.object({ count: z.number().int().min(1).max(1024), size: z.number().int().min(1).max(4 * 1024 * 1024) }).strict(),
    ProbeMessageSchema,
  ),
  /** Fails with the WorkbenchError it is given (each field must reach the caller). */
  fail: call<never>()(WorkbenchErrorSchema),
  /** Emits one chunk, then fails with the WorkbenchError it is given. */
  failStream: stream<ProbeChunk, never>()(WorkbenchErrorSchema),
  /** Reads one message, then fails with the WorkbenchError it was opened with. */
  failSession: session<never, never>()(WorkbenchErrorSchema, ProbeMessageSchema),
  pinged: event<{ n: number }>(),
  /** A keyed event: only pages subscribed to its key receive it. */
  level: keyedEvent<{ n: number }>(),
};

export const testContract = { ...contract, probe: probeContract };
export type TestContract = typeof testContract;

/** What the probe handlers saw, for the tests to assert on. */
export interface ProbeState {
  /** Signals of every probe call and session, in start order. */
  signals: AbortSignal[];
  /** Per session (start order): true once its message iterator finished. */
  iteratorDone: boolean[];
  /** Messages the sink has read. */
  consumed: number;
  /** Called by the sink after each read (the suite samples its counters there). */
  onConsume: () => void;
  /** Chunks the flood's awaited emit has returned for. */
  emitted: number;
}

/** Bytes of flood chunk `n`. */
export function floodBytes(n: number, size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (n + i) % 251;
  return out;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createProbeHandlers(): { handlers: FamilyHandlers<typeof probeContract>; state: ProbeState } {
  const state: ProbeState = { signals: [], iteratorDone: [], consumed: 0, onConsume: () => {}, emitted: 0 };
  const handlers: FamilyHandlers<typeof probeContract> = {
    wait: (_input, ctx) => {
      state.signals.push(ctx.signal);
      return new Promise<{ finished: true }>((resolve) => {
        if (ctx.signal.aborted) resolve({ finished: true });
        else ctx.signal.addEventListener('abort', () => resolve({ finished: true }), { once: true });
      });
    },
    echo: async ({ label }, ctx) => {
      state.signals.push(ctx.signal);
      const index = state.iteratorDone.push(false) - 1;
      let count = 0;
      let bytes = 0;
      for await (const message of ctx.messages) {
        count++;
        bytes += message.data?.byteLength ?? 0;
        await ctx.emit(message.data ? { seq: message.seq, data: message.data.slice().reverse() } : { seq: message.seq });
      }
      state.iteratorDone[index] = true;
      return { label, count, bytes };
    },
    sink: async ({ turns }, ctx) => {
      state.signals.push(ctx.signal);
      const index = state.iteratorDone.push(false) - 1;
      let bytes = 0;
      for await (const message of ctx.messages) {
        for (let i = 0; i < turns; i++) await turn();
        state.consumed++;
        bytes += message.data?.byteLength ?? 0;
        state.onConsume();
      }
      state.iteratorDone[index] = true;
      return { label: 'sink', count: state.consumed, bytes };
    },
    fail: (error) => {
      throw new WorkbenchFailure(error);
    },
    failStream: async (error, ctx) => {
      ctx.emit({ seq: 0 });
      throw new WorkbenchFailure(error);
    },
    failSession: async (error, ctx) => {
      await ctx.messages[Symbol.asyncIterator]().next();
      throw new WorkbenchFailure(error);
    },
    flood: async ({ count, size }, ctx) => {
      state.signals.push(ctx.signal);
      for (let n = 0; n < count && !ctx.signal.aborted; n++) {
        await ctx.emit({ seq: n, data: floodBytes(n, size) });
        state.emitted++;
      }
      return { sent: state.emitted };
    },
  };
  return { handlers, state };
}

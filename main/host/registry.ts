/**
 * The handler registry: pairs every call, stream and session operation of the contract with its
 * handler, keyed by channel name (`family.method`). `streams.cancel` and `ops.*` are left to the
 * host.
 */
import type { z } from 'zod';
import { channelName, type Contract } from '../../shared/contract/define';

/** Untyped view of a handler; the typed map (HandlersFor) is checked at compile time. */
export type AnyHandler = (input: unknown, ctx: never) => unknown;

export interface RegisteredOp {
  readonly channel: string;
  readonly kind: 'call' | 'stream' | 'session';
  readonly input: z.ZodType;
  /** A session's inbound message schema. */
  readonly message?: z.ZodType;
  readonly handler: AnyHandler;
}

/** Channels the host answers itself rather than through a handler. */
export const HOST_CHANNELS = new Set(['streams.cancel', 'ops.cancel', 'ops.send', 'ops.close', 'ops.subscribe', 'ops.unsubscribe']);

/**
 * Builds the channel table. Throws at start-up when a handler is missing, so a contract that
 * grew without its handler (and slipped past the type check via a cast) fails loudly and early.
 */
export function buildRegistry(contract: Contract, handlers: object): Map<string, RegisteredOp> {
  const table = new Map<string, RegisteredOp>();
  const byFamily = handlers as Record<string, Record<string, AnyHandler> | undefined>;
  for (const [family, ops] of Object.entries(contract)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.kind === 'event') continue;
      const channel = channelName(family, method);
      if (HOST_CHANNELS.has(channel)) continue;
      const handler = byFamily[family]?.[method];
      if (typeof handler !== 'function') throw new Error(`No handler registered for ${channel}`);
      table.set(channel, { channel, kind: op.kind, input: op.input, message: op.kind === 'session' ? op.message : undefined, handler });
    }
  }
  return table;
}

/**
 * Every operation channel of the contract, including host-handled ones (for IPC wiring). Sessions
 * start like streams (their inbound side goes through `ops.send`), so they are listed as 'stream'.
 */
export function operationChannels(contract: Contract): { channel: string; kind: 'call' | 'stream' }[] {
  const out: { channel: string; kind: 'call' | 'stream' }[] = [];
  for (const [family, ops] of Object.entries(contract)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.kind !== 'event') out.push({ channel: channelName(family, method), kind: op.kind === 'call' ? 'call' : 'stream' });
    }
  }
  return out;
}

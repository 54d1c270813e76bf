/**
 * Validation of WebSocket messages by their `type` (the voice families: tts, stt, realtime). One
 * zod schema per known type; the schemas are loose (unknown fields are kept, wire-notes rule 2).
 * A message of a type no schema names is `unknown` (kept and shown, never an error); a message
 * whose known type has a field of the wrong shape, or that is not a typed JSON object, is
 * `invalid` with a sentence naming the field, so the caller can report it instead of crashing.
 */
import type { z } from 'zod';

/** A JSON object of a type the schemas do not know; kept as it came. */
export interface UnknownMessage {
  type: string;
  [field: string]: unknown;
}

export type WsParsed<M> = { kind: 'message'; message: M } | { kind: 'unknown'; message: UnknownMessage } | { kind: 'invalid'; issue: string };

export type WsMessageParser<M> = (value: unknown) => WsParsed<M>;

/** "delta: expected string, received number" for the first few issues of a failed parse. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}

/** A parser for the messages of one direction of one socket: `schemas` by `type`. */
export function wsMessageParser<M>(schemas: Readonly<Record<string, z.ZodType>>): WsMessageParser<M> {
  return (value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'invalid', issue: 'the message is not a JSON object' };
    const type = (value as { type?: unknown }).type;
    if (typeof type !== 'string') return { kind: 'invalid', issue: 'the message has no "type"' };
    const schema = Object.prototype.hasOwnProperty.call(schemas, type) ? schemas[type] : undefined;
    if (!schema) return { kind: 'unknown', message: value as UnknownMessage };
    const parsed = schema.safeParse(value);
    if (!parsed.success) return { kind: 'invalid', issue: `${type}: ${describeIssues(parsed.error)}` };
    return { kind: 'message', message: parsed.data as M };
  };
}

/**
 * The text of an `error` message: `message`, else `error` as a string or as an object with a
 * `message` (OpenAI style), else null (wire-notes §3.2: clients read `message`, fallback `error`).
 */
export function wsErrorText(message: { message?: unknown; error?: unknown }): string | null {
  if (typeof message.message === 'string' && message.message !== '') return message.message;
  if (typeof message.error === 'string' && message.error !== '') return message.error;
  const nested = message.error as { message?: unknown } | null | undefined;
  if (nested && typeof nested === 'object' && typeof nested.message === 'string') return nested.message;
  return null;
}

/** The service's code of an `error` message (`code`, or `error.code` / `error.type`), or null. */
export function wsErrorCode(message: { code?: unknown; error?: unknown }): string | null {
  if (typeof message.code === 'string' || typeof message.code === 'number') return String(message.code);
  const nested = message.error as { code?: unknown; type?: unknown } | null | undefined;
  if (nested && typeof nested === 'object') {
    const code = nested.code ?? nested.type;
    if (typeof code === 'string' || typeof code === 'number') return String(code);
  }
  return null;
}

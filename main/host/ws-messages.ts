/**
 * Parsing of the browser-mode WebSocket's client messages (shared/contract/protocol.ts), from a
 * text frame (JSON) or a binary frame (binary-frame.ts: JSON header + raw bytes). The envelope is
 * checked here; the payload (`input`, with any Uint8Arrays in place) is the host's job.
 */
import { z } from 'zod';
import { decodeBinaryFrame } from '../../shared/contract/binary-frame';
import type { ClientMessage } from '../../shared/contract/protocol';
import type { WorkbenchError } from '../../shared/contract/errors';

const ClientMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    method: z.string().max(200),
    input: z.unknown().optional(),
    opId: z.string().max(200).optional(),
  }),
  z.object({
    t: z.literal('stream'),
    id: z.number().int().nonnegative(),
    method: z.string().max(200),
    input: z.unknown().optional(),
    streamId: z.string().max(200),
  }),
]);

export type ParsedClientMessage =
  | { ok: true; message: ClientMessage }
  | { ok: false; id: number | null; streamId: string | null; error: WorkbenchError };

function malformed(message: string): ParsedClientMessage {
  return { ok: false, id: null, streamId: null, error: { code: 'invalid_input', message } };
}

/** Decodes one frame; a malformed one gives an error (with its id when one could be read). */
export function parseClientMessage(data: string | Uint8Array): ParsedClientMessage {
  let raw: unknown;
  if (typeof data === 'string') {
    try {
      raw = JSON.parse(data);
    } catch {
      return malformed('The message is not valid JSON.');
    }
  } else {
    try {
      raw = decodeBinaryFrame(data);
    } catch (err) {
      return malformed(err instanceof Error ? err.message : 'The binary frame is malformed.');
    }
  }
  const parsed = ClientMessageSchema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data as ClientMessage };
  const obj = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    ok: false,
    id: typeof obj.id === 'number' && Number.isInteger(obj.id) ? obj.id : null,
    streamId: typeof obj.streamId === 'string' ? obj.streamId : null,
    error: {
      code: 'invalid_input',
      message: 'The message is not a workbench call: expected {t: "call"|"stream", id, method, input}.',
    },
  };
}

/**
 * Parsing of the browser-mode WebSocket's client messages (shared/contract/protocol.ts). The
 * envelope is checked here; the payload (`input`) is the host's job.
 */
import { z } from 'zod';
import type { ClientMessage } from '../../shared/contract/protocol';
import type { WorkbenchError } from '../../shared/contract/errors';

const ClientMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('call'), id: z.number().int().nonnegative(), method: z.string().max(200), input: z.unknown().optional() }),
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

/** Decodes one text frame; a malformed one gives an error (with its id when one could be read). */
export function parseClientMessage(text: string): ParsedClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, id: null, streamId: null, error: { code: 'invalid_input', message: 'The message is not valid JSON.' } };
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

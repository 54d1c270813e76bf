/**
 * SIP on the wire (spec "Voice - realtime and SIP", "Webhook"; wire-notes §6.2, §6.3, §6.5): the
 * `realtime.call.incoming` event a number's webhook receives. Loose objects: unknown fields are
 * kept (wire-notes rule 2), only what the app acts on is required.
 */
import { z } from 'zod';

export const INCOMING_CALL_EVENT = 'realtime.call.incoming';

export const sipHeaderSchema = z.looseObject({ name: z.string(), value: z.string() });

export const incomingCallEventSchema = z.looseObject({
  object: z.literal('event').optional(),
  id: z.string().min(1),
  type: z.literal(INCOMING_CALL_EVENT),
  /** Unix seconds. */
  created_at: z.number().optional(),
  data: z.looseObject({
    call_id: z.string().min(1).max(256),
    sip_headers: z.array(sipHeaderSchema).default([]),
    metadata: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type IncomingCallEvent = z.infer<typeof incomingCallEventSchema>;

/** A SIP header's value by name (case-insensitive, as SIP header names are), or null. */
export function sipHeader(event: IncomingCallEvent, name: string): string | null {
  const lower = name.toLowerCase();
  return event.data.sip_headers.find((h) => h.name.toLowerCase() === lower)?.value ?? null;
}

/**
 * The party in a From/To header: a bare number (`+14155550100`, as the sandbox sends) or the
 * user part of a SIP address (`"Ann" <sip:+14155550100@host>;tag=1` gives `+14155550100`).
 */
export function sipParty(value: string | null): string | null {
  if (value === null) return null;
  const uri = /<([^>]*)>/.exec(value)?.[1] ?? value.split(';')[0].trim();
  const user = /^(?:sips?|tel):([^@;]+)/i.exec(uri)?.[1];
  return (user ?? uri).trim() || null;
}

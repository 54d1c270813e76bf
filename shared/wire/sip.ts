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

/*
 * Phone numbers (`POST|GET /v2/phone-numbers`, wire-notes §6.2). The spec's fields are
 * snake_case; one client saw the live service answer in camelCase (`phoneNumber`,
 * `dispatchSigningSecret`, `{"phoneNumbers": […]}`): both are read, and handed on as snake_case.
 */

export const PHONE_NUMBER_ORIGINS = ['svc_provisioned', 'byo_trunk'] as const;
export type PhoneNumberOrigin = (typeof PHONE_NUMBER_ORIGINS)[number];

/** The body of `POST /v2/phone-numbers`. */
export interface PhoneNumberCreate {
  origin: PhoneNumberOrigin;
  name: string;
  phone_number?: string;
  webhook: { url: string; name?: string };
  sip_auth?: { allowed_addresses?: string[]; username?: string; password?: string };
}

const CAMEL: Record<string, string> = {
  phoneNumberId: 'phone_number_id',
  teamId: 'team_id',
  phoneNumber: 'phone_number',
  phoneNumbers: 'phone_numbers',
  webhookId: 'webhook_id',
  sipHost: 'sip_host',
  sipAuth: 'sip_auth',
  allowedAddresses: 'allowed_addresses',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  dispatchSigningSecret: 'dispatch_signing_secret',
};

/** camelCase keys the service was seen to use, renamed to the spec's (deep; snake_case wins when both come). */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const name = CAMEL[k] ?? k;
    if (name !== k && name in (value as Record<string, unknown>)) continue;
    out[name] = snakeKeys(v);
  }
  return out;
}

export const phoneNumberSchema = z.looseObject({
  phone_number_id: z.string().min(1),
  team_id: z.string().nullish(),
  phone_number: z.string(),
  name: z.string().nullish(),
  webhook_id: z.string().nullish(),
  origin: z.string().nullish(),
  sip_host: z.string().nullish(),
  sip_auth: z.looseObject({ allowed_addresses: z.array(z.string()).nullish(), username: z.string().nullish() }).nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type PhoneNumber = z.infer<typeof phoneNumberSchema>;

export const phoneNumberCreatedSchema = z.preprocess(
  snakeKeys,
  z.looseObject({
    phone_number: phoneNumberSchema,
    webhook: z.looseObject({ webhook_id: z.string().nullish(), dispatch_signing_secret: z.string().min(1) }),
  }),
);
export type PhoneNumberCreated = z.infer<typeof phoneNumberCreatedSchema>;

export const phoneNumberListSchema = z.preprocess(snakeKeys, z.looseObject({ phone_numbers: z.array(phoneNumberSchema) }));
export type PhoneNumberList = z.infer<typeof phoneNumberListSchema>;

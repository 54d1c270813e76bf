/**
 * The SIP family (spec "Voice - realtime and SIP"; wire-notes §6.2, §6.3, §6.5): phone numbers
 * registered for API-controlled calls (their signing secrets kept with the API keys, shown once),
 * the loopback webhook receiver that takes `realtime.call.incoming` deliveries, the calls that
 * ring, and call control (refer, hangup). Inputs are checked for shape here; the values' rules
 * (E.164, CIDR blocks, URLs) are the service's to apply, so its own words reach the user (the
 * page checks them first with the same rules, shared/sip/rules.ts). Not recorded in History as
 * runs: a registration's answer holds the secret.
 */
import { z } from 'zod';
import { call, event } from '../../contract/define';
import { ConnectionIdSchema } from '../../contract/text';
import type { KeyStorageBackend } from '../../contract/connections';
import { PHONE_NUMBER_ORIGINS, type PhoneNumber } from '../../wire/sip';
import type { SipCallState } from '../../sip-call';

export type { PhoneNumber } from '../../wire/sip';

const connection = { connectionId: ConnectionIdSchema.optional() };

export const SIP_LIMITS = { nameChars: 256, allowedAddresses: 100, urlChars: 2048, digestChars: 128 } as const;

/**
 * `sip_auth`'s other form (wire-notes §6.2, documented): digest credentials the trunk
 * authenticates with, both or neither. The password is sent once, never returned by the service
 * and never kept here (not in History, settings or logs).
 */
export const SipDigestSchema = z
  .object({
    username: z.string().trim().min(1, 'a digest user name is required with its password').max(SIP_LIMITS.digestChars),
    password: z.string().min(1, 'a digest password is required with its user name').max(SIP_LIMITS.digestChars),
  })
  .strict();

export const SipRegisterSchema = z
  .object({
    ...connection,
    origin: z.enum(PHONE_NUMBER_ORIGINS),
    name: z.string().trim().min(1, 'a number needs a name').max(SIP_LIMITS.nameChars),
    /** E.164; a `svc_provisioned` number may leave it out (the service picks one). */
    phoneNumber: z.string().trim().max(40).optional(),
    /** Default: the receiver's loopback URL (it is started for it). */
    webhookUrl: z.string().trim().max(SIP_LIMITS.urlChars).optional(),
    webhookName: z.string().trim().max(SIP_LIMITS.nameChars).optional(),
    /** `sip_auth.allowed_addresses`: the CIDR blocks the trunk sends from. */
    allowedAddresses: z.array(z.string().trim().max(60)).max(SIP_LIMITS.allowedAddresses).default([]),
    /** `sip_auth.username` / `password`. A `byo_trunk` number needs this or allowed addresses (or both). */
    digest: SipDigestSchema.optional(),
  })
  .strict();
export type SipRegisterInput = z.input<typeof SipRegisterSchema>;

/** A number's signing secret given by hand: one registered elsewhere, or a new one (a rotation). */
export const SipKeepSecretSchema = z
  .object({
    ...connection,
    phoneNumberId: z.string().trim().min(1).max(200),
    phoneNumber: z.string().trim().max(40),
    /** Where its deliveries go (the receiver listens for a loopback one). */
    webhookUrl: z.string().trim().max(SIP_LIMITS.urlChars).default(''),
    /** `whsec_` and base64 (Standard Webhooks). */
    secret: z.string().trim().regex(/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/, 'a signing secret is "whsec_" followed by base64').min(8).max(400),
  })
  .strict();
export type SipKeepSecretInput = z.input<typeof SipKeepSecretSchema>;

export const SipCallRefSchema = z.object({ ...connection, callId: z.string().min(1).max(256) }).strict();
/** Keys pressed as the sandbox's simulated caller (0-9, *, #, A-D; the rules in shared/sip/rules.ts are applied in main). */
export const SipPressKeysSchema = z.object({ ...connection, callId: z.string().min(1).max(256), digits: z.string().trim().min(1, 'press at least one key').max(32) }).strict();
export const SipReferSchema = z.object({ ...connection, callId: z.string().min(1).max(256), target: z.string().trim().min(1, 'enter a target').max(300) }).strict();

/** The receiver as the panel shows it. */
export interface SipReceiverStatus {
  state: 'stopped' | 'listening' | 'failed';
  /** `http://127.0.0.1:<port>/webhooks/sip` while listening. */
  url: string | null;
  port: number | null;
  problem: string | null;
  counts: Record<'handled' | 'duplicate' | 'ignored' | 'refused' | 'malformed' | 'failed', number>;
  recent: Array<{ at: number; webhookId: string | null; status: number; outcome: string; message: string }>;
}

/** A number as listed: `secretKept` says whether its signing secret is stored here (deliveries verifiable). */
export interface SipNumber {
  number: PhoneNumber;
  secretKept: boolean;
}

export interface SipNumbers {
  connectionId: string;
  numbers: SipNumber[];
  receiver: SipReceiverStatus;
}

export interface SipRegistered {
  number: PhoneNumber;
  /** The webhook's signing secret: shown once, never sent to the page again. */
  signingSecret: string;
  /** Where it was kept (the key store's backend); `stored` false: kept in memory only until the app quits. */
  secret: { stored: boolean; backend: KeyStorageBackend; warning: string | null };
  receiver: SipReceiverStatus;
}

/** A call announced by a verified `realtime.call.incoming`, as it stands (its live session's snapshot, shortened). */
export interface SipCall {
  callId: string;
  from: string | null;
  to: string | null;
  /** Unix ms when the delivery arrived. */
  at: number;
  state: SipCallState;
  /** The `sip-call` live session main started for it (null when none could start). */
  liveSessionId: string | null;
  /** The realtime console's session carrying an answered call's audio. */
  mediaSessionId: string | null;
  /** What went wrong last (an Answer the console could not take, a refused transfer). */
  problem: string | null;
  /** The call came in on the built-in sandbox: its simulated caller's keys can be pressed from here (`pressKeys`). */
  sandbox: boolean;
  /** The keys the caller pressed on the answered call so far, in order (`"12#"`). */
  digits: string;
  /** How it ended, in a sentence (the caller hung up, declined, transferred…); null while it goes on. */
  endReason: string | null;
}



export const sipContract = {
  /** `GET /v2/phone-numbers` and the receiver's status. */
  numbers: call<SipNumbers>()(z.object(connection).strict().optional()),
  /** `POST /v2/phone-numbers`; the secret stored with the keys and returned this once. */
  register: call<SipRegistered>()(SipRegisterSchema),
  /**
   * Keeps a number's signing secret given by hand. A number that had one: a rotation (the old one
   * still verifies for a day, so deliveries signed or retried with it pass meanwhile).
   */
  keepSecret: call<{ rotated: boolean; until: number | null; secret: SipRegistered['secret'] }>()(SipKeepSecretSchema),
  receiver: call<SipReceiverStatus>()(z.object({}).strict().optional()),
  /** Starts the loopback receiver (on demand: a tunnel in front of it, say). */
  startReceiver: call<SipReceiverStatus>()(z.object({}).strict().optional()),
  /** The calls of this run of the app that ring or are answered (a reloaded window picks them up here). */
  calls: call<SipCall[]>()(z.object({}).strict().optional()),
  /** Hands a ringing call to the realtime call console (its live session id); refused clearly while no console is available. */
  answer: call<{ mediaSessionId: string }>()(SipCallRefSchema),
  /** Declines a ringing call (`POST /v1/realtime/calls/{id}/hangup`). */
  decline: call<{ ok: true }>()(SipCallRefSchema),
  /** `POST /v1/realtime/calls/{id}/refer`: `tel:+E.164` or `sip:user@host` (checked before sending). */
  refer: call<{ ok: true }>()(SipReferSchema),
  /** `POST /v1/realtime/calls/{id}/hangup`: ends an answered call. */
  hangup: call<{ ok: true }>()(SipCallRefSchema),
  /**
   * Presses keys as the caller of an answered call: the sandbox's control API
   * (`POST /sandbox/calls/{id}/dtmf`). Refused on a real service, where the caller presses keys on
   * their own phone. The keys come back as the call's `digits` once the service reports them.
   */
  pressKeys: call<{ ok: true }>()(SipPressKeysSchema),
  /** The receiver started, stopped or took a delivery. */
  receiverChanged: event<SipReceiverStatus>(),
  /** A call rang (a verified delivery), or its state changed: answered, declined, transferred, ended, missed. */
  callChanged: event<SipCall>(),
};

/**
 * Registered phone numbers: per team for listing, one index over every team by the E.164 number
 * (a number routes to one place, so registering it again is a 409 whoever asks), and the webhook
 * each number's calls are posted to with its signing secret. The secret is handed out once, in
 * the create answer; the listing never shows it.
 */
import { randomBytes } from 'node:crypto';
import type { NumberRequest, Origin } from './number-request';

/** Where the (simulated) carrier sends a number's calls: `sip:{phone_number}@SIP_HOST;transport=tls`. */
export const SIP_HOST = 'sip.sandbox.invalid';

export interface PhoneNumber {
  phone_number_id: string;
  team_id: string;
  phone_number: string;
  name: string;
  webhook_id: string;
  origin: Origin;
  sip_host: string;
  sip_auth: { allowed_addresses: string[]; username?: string };
  created_at: string;
  updated_at: string;
}

export interface NumberWebhook {
  webhook_id: string;
  name: string | null;
  url: string;
  /** `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
  secret: string;
}

interface Entry {
  number: PhoneNumber;
  webhook: NumberWebhook;
  /** Kept for a digest check a SIP side would make; never returned. */
  digestPassword: string | null;
}

export type RegisterResult = { ok: true; number: PhoneNumber; webhook: NumberWebhook } | { ok: false; status: 409 | 503; message: string };

/** Fictional numbers (555-0100 to 555-0199 are reserved for fiction) for `svc_provisioned`. */
const PROVISION_AREAS = ['800', '888', '877', '866', '855', '844', '833'];

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export class PhoneNumberStore {
  private readonly byNumber = new Map<string, Entry>();

  /** Registers a number for `team`; 409 when the number is registered already (by any team). */
  register(team: string, request: NumberRequest, nowMs: number): RegisterResult {
    const phone = request.phoneNumber ?? this.provision();
    if (phone === null) return { ok: false, status: 503, message: 'The sandbox has no provisioned numbers left (700 fictional numbers are in use): give phone_number, or delete a number.' };
    const existing = this.byNumber.get(phone);
    if (existing) {
      const whose = existing.number.team_id === team ? `your team registered it as ${existing.number.phone_number_id} ("${existing.number.name}")` : 'another team registered it';
      return { ok: false, status: 409, message: `Phone number ${phone} is already registered (${whose}); a number can be registered once.` };
    }
    const at = new Date(nowMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const webhook: NumberWebhook = { webhook_id: `wh_${randomBytes(12).toString('hex')}`, name: request.webhook.name, url: request.webhook.url, secret: newSigningSecret() };
    const number: PhoneNumber = {
      phone_number_id: `pn_${randomBytes(12).toString('hex')}`,
      team_id: team,
      phone_number: phone,
      name: request.name,
      webhook_id: webhook.webhook_id,
      origin: request.origin,
      sip_host: SIP_HOST,
      sip_auth: request.sipAuth.digest ? { allowed_addresses: request.sipAuth.allowedAddresses, username: request.sipAuth.digest.username } : { allowed_addresses: request.sipAuth.allowedAddresses },
      created_at: at,
      updated_at: at,
    };
    this.byNumber.set(phone, { number, webhook, digestPassword: request.sipAuth.digest?.password ?? null });
    return { ok: true, number, webhook };
  }

  /** The team's numbers, oldest first. */
  list(team: string): PhoneNumber[] {
    return [...this.byNumber.values()].filter((e) => e.number.team_id === team).map((e) => e.number);
  }

  /** The number and its webhook, whichever team has it (a call is routed by number). */
  lookup(phone: string): { number: PhoneNumber; webhook: NumberWebhook } | undefined {
    const entry = this.byNumber.get(phone);
    return entry && { number: entry.number, webhook: entry.webhook };
  }

  clear(): void {
    this.byNumber.clear();
  }

  private provision(): string | null {
    for (const area of PROVISION_AREAS) {
      for (let i = 100; i < 200; i++) {
        const phone = `+1${area}5550${i}`;
        if (!this.byNumber.has(phone)) return phone;
      }
    }
    return null;
  }
}

/**
 * Registered phone numbers: per team for listing, one index over every team by the E.164 number
 * (a number routes to one place, so registering it again is a 409 whoever asks), and the webhook
 * each number's calls are posted to with its signing secret. The secret is handed out once, in
 * the create answer; the listing never shows it.
 */
import { randomBytes } from 'node:crypto';
import { list, obj, str, strOrNull } from '../state/shape';
import { checkCidr, checkE164, checkWebhookUrl } from './rules';
import { ORIGINS, type NumberRequest, type Origin } from './number-request';

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
  /** Told on every registration (a state folder writes `phone-numbers.json` at once: the client holds the secret). */
  onChange: (created?: boolean) => void = () => undefined;

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
    this.onChange(true);
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

  /** Every number with its webhook and secret (the state folder is private: 0700, files 0600). */
  snapshot(): unknown {
    return { version: 1, numbers: [...this.byNumber.values()] };
  }

  /** Restores a snapshot; a malformed entry throws (the snapshot is moved aside, state/snapshot-file.ts). */
  restore(data: unknown): void {
    const o = obj(data, 'phone numbers snapshot');
    if (o.version !== 1) throw new Error(`phone numbers snapshot has version ${String(o.version)}, expected 1`);
    for (const item of list(o.numbers, 'numbers')) {
      const e = obj(item, 'phone number entry');
      const n = obj(e.number, 'phone number');
      const w = obj(e.webhook, 'phone number webhook');
      const phone = str(n, 'phone_number');
      const origin = str(n, 'origin');
      const addresses = list(obj(n.sip_auth, 'sip_auth').allowed_addresses, 'allowed_addresses');
      if (checkE164('phone_number', phone) || checkWebhookUrl('url', str(w, 'url')) || !(ORIGINS as readonly string[]).includes(origin) || addresses.some((a) => checkCidr('a', a))) {
        throw new Error(`phone number ${phone.slice(0, 20)} has a malformed field`);
      }
      if (!str(w, 'secret').startsWith('whsec_')) throw new Error(`phone number ${phone}: its secret is malformed`);
      for (const key of ['phone_number_id', 'team_id', 'name', 'webhook_id', 'sip_host', 'created_at', 'updated_at']) str(n, key);
      strOrNull(w, 'name');
      str(w, 'webhook_id');
      this.byNumber.set(phone, { number: n as unknown as PhoneNumber, webhook: w as unknown as NumberWebhook, digestPassword: strOrNull(e, 'digestPassword') });
    }
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

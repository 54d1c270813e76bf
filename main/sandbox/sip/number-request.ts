/**
 * The body of `POST /v2/phone-numbers` (spec "Create phone number", wire-notes §6.2), checked into
 * a NumberRequest. Like the other endpoints: a wrong JSON type, a missing required field or an
 * unknown enum value is a 422 (shape); a value that breaks a rule is a 400; every problem is
 * listed in one message; a field the service does not know is a 400 naming it.
 */
import { isObject, shape, value, type RequestViolation } from '../../../shared/validate/violations';
import { checkCidr, checkE164, checkWebhookUrl } from './rules';

export const ORIGINS = ['svc_provisioned', 'byo_trunk'] as const;
export type Origin = (typeof ORIGINS)[number];

export const NUMBER_LIMITS = { nameChars: 256, allowedAddresses: 100, digestChars: 128 } as const;

export interface NumberRequest {
  origin: Origin;
  name: string;
  /** Null: a `svc_provisioned` number the service picks. */
  phoneNumber: string | null;
  webhook: { name: string | null; url: string };
  sipAuth: { allowedAddresses: string[]; digest: { username: string; password: string } | null };
}

const FIELDS = ['origin', 'name', 'phone_number', 'webhook', 'sip_auth', 'agent_id'];

function checkName(field: string, v: unknown, out: RequestViolation[]): string | null {
  if (typeof v !== 'string') {
    out.push(shape(field, `${field} must be a string`));
    return null;
  }
  if (v.trim() === '') out.push(value(field, `${field} must not be blank`));
  else if (v.length > NUMBER_LIMITS.nameChars) out.push(value(field, `${field} is ${v.length} characters long; the limit is ${NUMBER_LIMITS.nameChars}`));
  return v;
}

function unknownFields(field: string, obj: Record<string, unknown>, known: string[], out: RequestViolation[]): void {
  const extra = Object.keys(obj).filter((k) => !known.includes(k));
  if (extra.length > 0) out.push(value(field, `${field === '' ? 'the body' : field} has fields the service does not know: ${extra.join(', ')} (known: ${known.join(', ')})`));
}

function checkSipAuth(v: unknown, out: RequestViolation[]): NumberRequest['sipAuth'] {
  const auth: NumberRequest['sipAuth'] = { allowedAddresses: [], digest: null };
  if (!isObject(v)) {
    out.push(shape('sip_auth', 'sip_auth must be an object: {"allowed_addresses": ["203.0.113.0/24"]} or {"username": "…", "password": "…"}'));
    return auth;
  }
  unknownFields('sip_auth', v, ['allowed_addresses', 'username', 'password'], out);
  const { allowed_addresses: list, username, password } = v;
  if (list !== undefined) {
    if (!Array.isArray(list)) out.push(shape('sip_auth.allowed_addresses', 'sip_auth.allowed_addresses must be an array of CIDR blocks'));
    else if (list.length > NUMBER_LIMITS.allowedAddresses) out.push(value('sip_auth.allowed_addresses', `sip_auth.allowed_addresses has ${list.length} blocks; at most ${NUMBER_LIMITS.allowedAddresses}`));
    else {
      list.forEach((cidr, i) => {
        const problem = checkCidr(`sip_auth.allowed_addresses[${i}]`, cidr);
        if (problem) out.push(typeof cidr === 'string' ? value(`sip_auth.allowed_addresses[${i}]`, problem) : shape(`sip_auth.allowed_addresses[${i}]`, problem));
        else auth.allowedAddresses.push(cidr as string);
      });
    }
  }
  if (username !== undefined || password !== undefined) {
    for (const [field, given] of [['username', username], ['password', password]] as const) {
      if (typeof given !== 'string') out.push(given === undefined ? value(`sip_auth.${field}`, `sip_auth.${field} is required with sip_auth.${field === 'username' ? 'password' : 'username'} (digest authentication takes both)`) : shape(`sip_auth.${field}`, `sip_auth.${field} must be a string`));
      else if (given === '' || given.length > NUMBER_LIMITS.digestChars) out.push(value(`sip_auth.${field}`, `sip_auth.${field} must be 1 to ${NUMBER_LIMITS.digestChars} characters`));
    }
    if (typeof username === 'string' && typeof password === 'string') auth.digest = { username, password };
  }
  if (auth.allowedAddresses.length === 0 && auth.digest === null && !out.some((o) => o.field.startsWith('sip_auth'))) {
    out.push(value('sip_auth', 'sip_auth says nothing: give allowed_addresses (the CIDR blocks your SIP trunk sends from) or a digest username and password'));
  }
  return auth;
}

/** Checks the body; `{errors}` (with the status to answer) or the request. */
export function checkNumberRequest(body: unknown): { request: NumberRequest } | { status: 400 | 422; errors: string[] } {
  const out: RequestViolation[] = [];
  if (!isObject(body)) return { status: 422, errors: ['The body must be a JSON object: {"origin", "name", "phone_number", "webhook": {"url"}, "sip_auth"}'] };
  unknownFields('', body, FIELDS, out);
  const request: NumberRequest = { origin: 'byo_trunk', name: '', phoneNumber: null, webhook: { name: null, url: '' }, sipAuth: { allowedAddresses: [], digest: null } };

  if (body.origin === undefined || body.origin === null) out.push(shape('origin', `origin is required: "byo_trunk" (your own SIP trunk) or "svc_provisioned" (a number from the service)`));
  else if (typeof body.origin !== 'string' || !(ORIGINS as readonly string[]).includes(body.origin)) out.push(shape('origin', `origin must be one of "svc_provisioned", "byo_trunk"; got ${JSON.stringify(body.origin)}`));
  else request.origin = body.origin as Origin;
  // What byo_trunk needs is only asked for once the origin is known to be byo_trunk.
  const trunk = body.origin === 'byo_trunk';

  if (body.name === undefined || body.name === null) out.push(shape('name', 'name is required: a label for the number, such as "Support line"'));
  else request.name = checkName('name', body.name, out) ?? '';

  if (body.phone_number === undefined || body.phone_number === null) {
    if (trunk) out.push(shape('phone_number', 'phone_number is required with origin "byo_trunk": the E.164 number your trunk routes here, such as "+18005550199"'));
  } else {
    const problem = checkE164('phone_number', body.phone_number);
    if (problem) out.push(typeof body.phone_number === 'string' ? value('phone_number', problem) : shape('phone_number', problem));
    else request.phoneNumber = body.phone_number as string;
  }

  const webhook = body.webhook;
  if (webhook === undefined || webhook === null) out.push(shape('webhook', 'webhook is required: {"url": "https://…"}, where the service posts realtime.call.incoming for each call'));
  else if (!isObject(webhook)) out.push(shape('webhook', 'webhook must be an object: {"name": "…", "url": "https://…"}'));
  else {
    unknownFields('webhook', webhook, ['name', 'url'], out);
    if (webhook.url === undefined || webhook.url === null) out.push(shape('webhook.url', 'webhook.url is required: the http(s) URL incoming calls are posted to'));
    else {
      const problem = checkWebhookUrl('webhook.url', webhook.url);
      if (problem) out.push(typeof webhook.url === 'string' ? value('webhook.url', problem) : shape('webhook.url', problem));
      else request.webhook.url = webhook.url as string;
    }
    if (webhook.name !== undefined && webhook.name !== null) request.webhook.name = checkName('webhook.name', webhook.name, out);
  }

  if (body.sip_auth === undefined || body.sip_auth === null) {
    if (trunk) out.push(shape('sip_auth', 'sip_auth is required with origin "byo_trunk": {"allowed_addresses": ["<your trunk\'s CIDR block>"]} or a digest {"username", "password"}'));
  } else request.sipAuth = checkSipAuth(body.sip_auth, out);

  if (body.agent_id !== undefined && body.agent_id !== null && typeof body.agent_id !== 'string') out.push(shape('agent_id', 'agent_id must be a string'));

  if (out.length > 0) return { status: out.some((o) => o.kind === 'shape') ? 422 : 400, errors: out.map((o) => o.message) };
  return { request };
}

/**
 * The SIP panel's register form, pure: its fields, the checks the service applies (the same
 * rules, shared/sip/rules.ts, so the messages match the sandbox's) and the input it sends.
 * `problems` is empty when the form may be sent.
 *
 * `sip_auth` as the spec has it (wire-notes §6.2): `allowed_addresses`, CIDR blocks (at most
 * 100), and/or digest credentials, a `username` with its `password` (both or neither, 1 to 128
 * characters each). A `byo_trunk` number needs one of the two; a `svc_provisioned` one neither.
 */
import { SIP_LIMITS, type SipRegisterInput } from '@shared/families/sip/contract';
import type { PhoneNumberOrigin } from '@shared/wire/sip';
import { checkCidr, checkE164, checkReferTarget, checkWebhookUrl } from '@shared/sip/rules';

export interface RegisterForm {
  origin: PhoneNumberOrigin;
  name: string;
  phoneNumber: string;
  /** Empty: the receiver's loopback URL. */
  webhookUrl: string;
  /** CIDR blocks, one a line (or separated by commas or spaces). */
  allowedAddresses: string;
  /** Digest credentials: both or neither. The password is sent as typed (not trimmed). */
  digestUsername: string;
  digestPassword: string;
}

export type FormField = keyof RegisterForm;

export function emptyRegisterForm(): RegisterForm {
  return { origin: 'byo_trunk', name: '', phoneNumber: '', webhookUrl: '', allowedAddresses: '', digestUsername: '', digestPassword: '' };
}

export function cidrList(text: string): string[] {
  return text.split(/[\s,]+/).filter((s) => s !== '');
}

/** Each field's first problem, by field. */
export function formProblems(form: RegisterForm): Partial<Record<FormField, string>> {
  const out: Partial<Record<FormField, string>> = {};
  if (form.name.trim() === '') out.name = 'Give the number a name.';
  else if (form.name.length > 256) out.name = `The name is ${form.name.length} characters long; the limit is 256.`;
  const number = form.phoneNumber.trim();
  if (number !== '') {
    const p = checkE164('Phone number', number);
    if (p) out.phoneNumber = p;
  } else if (form.origin === 'byo_trunk') out.phoneNumber = 'A number on your own trunk (byo_trunk) needs its phone number, in E.164 form such as "+14155550100".';
  if (form.webhookUrl.trim() !== '') {
    const p = checkWebhookUrl('Webhook URL', form.webhookUrl.trim());
    if (p) out.webhookUrl = p;
  }
  const cidrs = cidrList(form.allowedAddresses);
  if (cidrs.length > SIP_LIMITS.allowedAddresses) out.allowedAddresses = `${cidrs.length} address blocks; at most ${SIP_LIMITS.allowedAddresses}.`;
  else {
    for (const [i, c] of cidrs.entries()) {
      const p = checkCidr(`Address block ${i + 1}`, c);
      if (p) {
        out.allowedAddresses = p;
        break;
      }
    }
  }
  const user = form.digestUsername.trim();
  const password = form.digestPassword;
  if (user !== '' || password !== '') {
    if (user === '') out.digestUsername = 'Digest authentication takes a user name with the password.';
    else if (user.length > SIP_LIMITS.digestChars) out.digestUsername = `The digest user name is ${user.length} characters long; the limit is ${SIP_LIMITS.digestChars}.`;
    if (password === '') out.digestPassword = 'Digest authentication takes a password with the user name.';
    else if (password.length > SIP_LIMITS.digestChars) out.digestPassword = `The digest password is ${password.length} characters long; the limit is ${SIP_LIMITS.digestChars}.`;
  }
  if (!out.allowedAddresses && form.origin === 'byo_trunk' && cidrs.length === 0 && user === '' && password === '') {
    out.allowedAddresses = 'A number on your own trunk needs how its SIP traffic is authenticated: the address blocks it comes from (CIDR, such as 203.0.113.0/24), or a digest user name and password, or both.';
  }
  return out;
}

export function registerInput(form: RegisterForm, connectionId?: string): SipRegisterInput {
  const number = form.phoneNumber.trim();
  const url = form.webhookUrl.trim();
  return {
    ...(connectionId ? { connectionId } : {}),
    origin: form.origin,
    name: form.name.trim(),
    ...(number ? { phoneNumber: number } : {}),
    ...(url ? { webhookUrl: url } : {}),
    allowedAddresses: cidrList(form.allowedAddresses),
    ...(form.digestUsername.trim() !== '' && form.digestPassword !== '' ? { digest: { username: form.digestUsername.trim(), password: form.digestPassword } } : {}),
  };
}

/** A transfer target's problem (`tel:+E.164` or `sip:user@host`), or null. */
export function referProblem(target: string): string | null {
  return checkReferTarget('The transfer target', target.trim());
}

/**
 * The SIP panel's register form, pure: its fields, the checks the service applies (the same
 * rules, shared/sip/rules.ts, so the messages match the sandbox's) and the input it sends.
 * `problems` is empty when the form may be sent.
 */
import type { SipRegisterInput } from '@shared/families/sip/contract';
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
}

export type FormField = keyof RegisterForm;

export function emptyRegisterForm(): RegisterForm {
  return { origin: 'byo_trunk', name: '', phoneNumber: '', webhookUrl: '', allowedAddresses: '' };
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
  if (cidrs.length > 100) out.allowedAddresses = `${cidrs.length} address blocks; at most 100.`;
  else {
    for (const [i, c] of cidrs.entries()) {
      const p = checkCidr(`Address block ${i + 1}`, c);
      if (p) {
        out.allowedAddresses = p;
        break;
      }
    }
  }
  if (!out.allowedAddresses && form.origin === 'byo_trunk' && cidrs.length === 0) out.allowedAddresses = 'A number on your own trunk needs the address blocks its SIP traffic comes from (CIDR, such as 203.0.113.0/24).';
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
  };
}

/** A transfer target's problem (`tel:+E.164` or `sip:user@host`), or null. */
export function referProblem(target: string): string | null {
  return checkReferTarget('The transfer target', target.trim());
}

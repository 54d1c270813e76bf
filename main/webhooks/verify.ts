/**
 * One delivery checked as Standard Webhooks says (wire-notes §6.5), with the kept
 * `standardwebhooks` package: the three headers present, the timestamp within ±5 minutes of our
 * clock, and a `v1` signature made with one of the accepted secrets (several during a rotation;
 * the header may also carry several signatures). The outcome is a value with the HTTP status the
 * receiver answers and a sentence for the log and the SIP panel.
 */
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks' tolerance, the library's own (a stale delivery may be a replay). */
export const TOLERANCE_S = 5 * 60;

export type Verified = { ok: true; webhookId: string; timestamp: number; secretId: string };
export type Refused = { ok: false; status: 400 | 401; code: 'missing_headers' | 'bad_timestamp' | 'stale' | 'forged'; message: string };

export interface AcceptedSecret {
  /** Names the secret in messages (a number's id and whether it is the old one): never the secret itself. */
  id: string;
  secret: string;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = headers[name];
  return typeof v === 'string' && v !== '' ? v : Array.isArray(v) && v[0] ? v[0] : null;
}

/**
 * Checks `body` (the raw bytes as received: the signature covers them exactly) against
 * `secrets`. `nowMs` is our clock: the timestamp is checked here first, so that "stale" and
 * "forged" are told apart; the library then checks the signature (and the time again, on the
 * same wall clock).
 */
export function verifyDelivery(body: Buffer, headers: Record<string, string | string[] | undefined>, secrets: readonly AcceptedSecret[], nowMs: number = Date.now()): Verified | Refused {
  const webhookId = header(headers, 'webhook-id');
  const timestampText = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (!webhookId || !timestampText || !signature) {
    const missing = [!webhookId && 'webhook-id', !timestampText && 'webhook-timestamp', !signature && 'webhook-signature'].filter(Boolean).join(', ');
    return { ok: false, status: 400, code: 'missing_headers', message: `The delivery has no ${missing} header: it is not a signed webhook.` };
  }
  if (!/^\d{1,12}$/.test(timestampText)) {
    return { ok: false, status: 400, code: 'bad_timestamp', message: `The delivery's webhook-timestamp "${timestampText.slice(0, 40)}" is not unix seconds.` };
  }
  const timestamp = Number(timestampText);
  const skew = Math.floor(nowMs / 1000) - timestamp;
  if (Math.abs(skew) > TOLERANCE_S) {
    const when = skew > 0 ? `${formatSkew(skew)} old` : `${formatSkew(-skew)} in the future`;
    return { ok: false, status: 401, code: 'stale', message: `Refused delivery ${webhookId}: its timestamp is ${when} (more than 5 minutes from this computer's clock), so it may be a replay. Check the clocks if every delivery is refused.` };
  }
  if (secrets.length === 0) {
    return { ok: false, status: 401, code: 'forged', message: `Refused delivery ${webhookId}: no signing secret is kept for any phone number, so no signature can be checked.` };
  }
  for (const s of secrets) {
    let hook: Webhook;
    try {
      hook = new Webhook(s.secret);
    } catch {
      continue; // A damaged secret verifies nothing; the others may.
    }
    try {
      hook.verify(body, { 'webhook-id': webhookId, 'webhook-timestamp': timestampText, 'webhook-signature': signature }, { jsonParse: false });
      return { ok: true, webhookId, timestamp, secretId: s.id };
    } catch {
      // Not this secret: try the next.
    }
  }
  return { ok: false, status: 401, code: 'forged', message: `Refused delivery ${webhookId}: its signature matches none of the ${secrets.length} signing secret(s) kept (forged, or signed with a secret this app does not have).` };
}

function formatSkew(seconds: number): string {
  return seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : `${seconds} s`;
}

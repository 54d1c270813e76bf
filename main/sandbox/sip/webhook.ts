/**
 * Delivery of `realtime.call.incoming` (wire-notes §6.5) to a number's webhook URL, signed per
 * Standard Webhooks with the number's secret (the kept `standardwebhooks` package):
 * `webhook-id` (the same on every attempt, so a receiver drops a repeat), `webhook-timestamp`
 * (unix seconds on the sandbox clock, at each attempt: a clock moved with /sandbox/clock/advance
 * makes deliveries a receiver must refuse as stale) and `webhook-signature: v1,<base64 HMAC>`.
 *
 * A 2xx answer ends it. Anything else (a non-2xx status, no answer within ATTEMPT_TIMEOUT_MS, a
 * host that cannot be reached) is retried after the next of `retryDelaysMs` (bounded: after the
 * last, it gives up), unless the call was answered or ended meanwhile (`stopped`). Every attempt is logged and
 * kept on the call (the control API shows them).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Clock } from '../clock';

/** Waits before the 2nd, 3rd, … attempt: 6 attempts over about 31 s, inside the 60 s of ringing. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
export const ATTEMPT_TIMEOUT_MS = 10_000;

export interface IncomingCallEvent {
  object: 'event';
  id: string;
  type: 'realtime.call.incoming';
  created_at: number;
  data: { call_id: string; sip_headers: Array<{ name: string; value: string }>; metadata: Record<string, unknown> };
}

export interface DeliveryAttempt {
  attempt: number;
  /** Unix milliseconds on the sandbox clock when it was sent. */
  at: number;
  /** The HTTP status, or null when there was no answer. */
  status: number | null;
  /** Why it failed (null when it worked). */
  error: string | null;
}

export interface Delivery {
  webhookId: string;
  url: string;
  attempts: DeliveryAttempt[];
  state: 'delivering' | 'delivered' | 'gave_up' | 'stopped';
}

export interface DeliveryDeps {
  clock: Clock;
  log: (line: string) => void;
  retryDelaysMs?: readonly number[];
  attemptTimeoutMs?: number;
  /** Resolves after ms, or at once when the signal aborts (the sandbox clock's sleep). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export function incomingCallEvent(callId: string, from: string, to: string, createdAt: number): IncomingCallEvent {
  return {
    object: 'event',
    id: `evt_${randomBytes(12).toString('hex')}`,
    type: 'realtime.call.incoming',
    created_at: createdAt,
    data: { call_id: callId, sip_headers: [{ name: 'From', value: from }, { name: 'To', value: to }], metadata: {} },
  };
}

/** The three Standard Webhooks headers for one attempt. */
export function signedHeaders(secret: string, webhookId: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = new Date(nowMs);
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, timestamp, body),
  };
}

async function attemptOnce(url: string, headers: Record<string, string>, body: string, timeoutMs: number, signal: AbortSignal): Promise<{ status: number | null; error: string | null }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'inference-sandbox-webhooks/1' },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status >= 200 && res.status < 300 ? { status: res.status, error: null } : { status: res.status, error: `answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { status: null, error: `could not be reached (${why})` };
  }
}

/**
 * Delivers `event` with retries; `delivery` is updated as it goes. `signal` stops it (the call was
 * answered or ended, or the sandbox closes) between attempts and cuts an attempt short.
 */
export async function deliver(
  event: IncomingCallEvent,
  target: { url: string; secret: string },
  delivery: Delivery,
  deps: DeliveryDeps,
  signal: AbortSignal,
  stillRinging: () => boolean = () => true,
): Promise<void> {
  const body = JSON.stringify(event);
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const timeoutMs = deps.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const sleep = deps.sleep ?? ((ms: number, s: AbortSignal) => deps.clock.sleep(ms, s));
  const callId = event.data.call_id;
  for (let n = 1; n <= delays.length + 1; n++) {
    // An answered call needs no more attempts; one in flight is left to finish.
    if (signal.aborted || (n > 1 && !stillRinging())) break;
    const at = deps.clock.now();
    const result = await attemptOnce(target.url, signedHeaders(target.secret, delivery.webhookId, at, body), body, timeoutMs, signal);
    if (signal.aborted && result.error !== null) break;
    delivery.attempts.push({ attempt: n, at, ...result });
    if (result.error === null) {
      delivery.state = 'delivered';
      deps.log(`sip: webhook for call ${callId} delivered to ${target.url} (attempt ${n}, HTTP ${result.status})`);
      return;
    }
    const next = delays[n - 1];
    deps.log(`sip: webhook for call ${callId} attempt ${n} to ${target.url} failed: ${result.error}; ${next === undefined ? 'giving up' : `retrying in ${next / 1000} s`}`);
    if (next === undefined) {
      delivery.state = 'gave_up';
      return;
    }
    await sleep(next, signal);
  }
  delivery.state = 'stopped';
}

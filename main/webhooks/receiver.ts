/**
 * The webhook receiver: an HTTP server on loopback only (127.0.0.1, its own port) that takes
 * `realtime.call.incoming` deliveries at `/webhooks/sip`. Each is checked (verify.ts), a
 * `webhook-id` already handled is answered 200 and dropped (seen-ids.ts), the body is read with
 * zod, and the call is handed to `onIncomingCall`. Statuses: 200 handled or repeated (or an
 * event type it does not act on); 400 no signature headers, a bad timestamp, or a signed body that
 * is not the event; 401 stale or forged; 404 another path; 405 another method; 413 too large;
 * 500 the handler failed (the id is forgotten, so the service's retry is handled).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { INCOMING_CALL_EVENT, incomingCallEventSchema, sipHeader, sipParty, type IncomingCallEvent } from '../../shared/wire/sip';
import type { SecretRing } from './secret-ring';
import { SeenIds } from './seen-ids';
import { verifyDelivery } from './verify';

export const WEBHOOK_PATH = '/webhooks/sip';
const MAX_BODY_BYTES = 64 * 1024;
const RECENT_KEPT = 20;

export interface IncomingCall {
  webhookId: string;
  callId: string;
  /** The caller and the number called, from the SIP From/To headers (null when absent). */
  from: string | null;
  to: string | null;
  /** Which kept secret verified it (a number's id, `:previous` during a rotation). */
  secretId: string;
  receivedAt: number;
  event: IncomingCallEvent;
}

export type DeliveryOutcome = 'handled' | 'duplicate' | 'ignored' | 'refused' | 'malformed' | 'failed';

export interface DeliveryRecord {
  at: number;
  webhookId: string | null;
  status: number;
  outcome: DeliveryOutcome;
  message: string;
}

export interface ReceiverStatus {
  state: 'stopped' | 'listening' | 'failed';
  url: string | null;
  port: number | null;
  /** Why it is not listening (state 'failed'). */
  problem: string | null;
  counts: Record<DeliveryOutcome, number>;
  /** The latest deliveries, newest last. */
  recent: DeliveryRecord[];
}

export interface ReceiverOptions {
  secrets: SecretRing;
  onIncomingCall: (call: IncomingCall) => void | Promise<void>;
  log: (line: string) => void;
  /** The port tried first (0 or absent: any free one); taken, another free one is used. */
  port?: number;
  now?: () => number;
  maxBodyBytes?: number;
  onStatus?: (status: ReceiverStatus) => void;
}

const emptyCounts = (): Record<DeliveryOutcome, number> => ({ handled: 0, duplicate: 0, ignored: 0, refused: 0, malformed: 0, failed: 0 });

export class WebhookReceiver {
  private server: Server | null = null;
  private starting: Promise<ReceiverStatus> | null = null;
  private current: ReceiverStatus = { state: 'stopped', url: null, port: null, problem: null, counts: emptyCounts(), recent: [] };
  private readonly seen: SeenIds;
  private readonly now: () => number;

  constructor(private readonly opts: ReceiverOptions) {
    this.now = opts.now ?? Date.now;
    this.seen = new SeenIds(this.now);
  }

  status(): ReceiverStatus {
    return { ...this.current, counts: { ...this.current.counts }, recent: [...this.current.recent] };
  }

  /** Starts listening (once; later calls give the same status). */
  start(): Promise<ReceiverStatus> {
    if (this.server && this.current.state === 'listening') return Promise.resolve(this.status());
    this.starting ??= this.listen().finally(() => (this.starting = null));
    return this.starting;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    this.update({ state: 'stopped', url: null, port: null, problem: null });
  }

  private async listen(): Promise<ReceiverStatus> {
    const server = createServer((req, res) => void this.handle(req, res));
    const tryPort = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    const preferred = this.opts.port ?? 0;
    try {
      try {
        await tryPort(preferred);
      } catch (error) {
        if (preferred === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        this.opts.log(`webhooks: port ${preferred} is taken; the receiver listens on another free port`);
        await tryPort(0);
      }
    } catch (error) {
      const problem = `The webhook receiver could not listen on 127.0.0.1: ${(error as Error).message}`;
      this.opts.log(`webhooks: ${problem}`);
      this.update({ state: 'failed', url: null, port: null, problem });
      return this.status();
    }
    this.server = server;
    const port = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
    this.opts.log(`webhooks: receiver listening at ${url}`);
    this.update({ state: 'listening', url, port, problem: null });
    return this.status();
  }

  private update(patch: Partial<ReceiverStatus>): void {
    this.current = { ...this.current, ...patch };
    this.opts.onStatus?.(this.status());
  }

  private answer(res: ServerResponse, webhookId: string | null, status: number, outcome: DeliveryOutcome, message: string): void {
    res.writeHead(status, { 'content-type': 'application/json', ...(status === 405 ? { allow: 'POST' } : {}), ...(status === 413 ? { connection: 'close' } : {}) });
    res.end(JSON.stringify(status < 300 ? { ok: true, outcome } : { error: message }));
    if (status === 404 || status === 405) return; // Not a delivery: not counted.
    this.opts.log(`webhooks: ${webhookId ?? 'delivery'} → ${status} ${outcome}: ${message}`);
    const counts = { ...this.current.counts, [outcome]: this.current.counts[outcome] + 1 };
    const recent = [...this.current.recent, { at: this.now(), webhookId, status, outcome, message }].slice(-RECENT_KEPT);
    this.update({ counts, recent });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WEBHOOK_PATH) return this.answer(res, null, 404, 'refused', `Nothing here: deliveries go to ${WEBHOOK_PATH}.`);
    if (req.method !== 'POST') return this.answer(res, null, 405, 'refused', 'Deliveries are POSTed.');
    const body = await readBody(req, this.opts.maxBodyBytes ?? MAX_BODY_BYTES);
    if (body === null) return this.answer(res, null, 413, 'malformed', `The delivery is larger than ${(this.opts.maxBodyBytes ?? MAX_BODY_BYTES) / 1024} KiB.`);

    const verified = verifyDelivery(body, req.headers, this.opts.secrets.accepted(), this.now());
    if (!verified.ok) return this.answer(res, null, verified.status, verified.code === 'missing_headers' || verified.code === 'bad_timestamp' ? 'malformed' : 'refused', verified.message);
    const { webhookId } = verified;
    if (this.seen.has(webhookId)) return this.answer(res, webhookId, 200, 'duplicate', `Delivery ${webhookId} was handled already; this repeat is ignored.`);

    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return this.answer(res, webhookId, 400, 'malformed', `Delivery ${webhookId} is signed but its body is not JSON.`);
    }
    const type = (json as { type?: unknown } | null)?.type;
    if (type !== INCOMING_CALL_EVENT) {
      // Signed by a number we keep, but an event this app does not act on: taken, so it is not retried.
      this.seen.add(webhookId);
      return this.answer(res, webhookId, 200, 'ignored', `Delivery ${webhookId} is a ${typeof type === 'string' ? `"${type.slice(0, 80)}"` : 'typeless'} event; only ${INCOMING_CALL_EVENT} is acted on.`);
    }
    const parsed = incomingCallEventSchema.safeParse(json);
    if (!parsed.success) {
      return this.answer(res, webhookId, 400, 'malformed', `Delivery ${webhookId} is not a valid ${INCOMING_CALL_EVENT}: ${z.prettifyError(parsed.error).replace(/\n/g, ' ')}`);
    }
    const event = parsed.data;
    const call: IncomingCall = {
      webhookId,
      callId: event.data.call_id,
      from: sipParty(sipHeader(event, 'From')),
      to: sipParty(sipHeader(event, 'To')),
      secretId: verified.secretId,
      receivedAt: this.now(),
      event,
    };
    // Seen before the handler runs, so a repeat arriving meanwhile is not handled twice.
    this.seen.add(webhookId);
    try {
      await this.opts.onIncomingCall(call);
    } catch (error) {
      this.seen.delete(webhookId);
      return this.answer(res, webhookId, 500, 'failed', `Call ${call.callId} could not be taken: ${(error as Error).message}`);
    }
    return this.answer(res, webhookId, 200, 'handled', `Call ${call.callId} from ${call.from ?? 'an unknown caller'} to ${call.to ?? 'an unknown number'} is ringing.`);
  }
}

/** The whole body, or null past `max` bytes (reading stops; the connection is closed after the answer). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => !done && resolve(Buffer.concat(chunks)));
    req.on('error', () => !done && ((done = true), resolve(null)));
  });
}

/**
 * The sandbox's SIP side, one per sandbox: registered numbers, simulated inbound calls (placed
 * through the control API, joined by the realtime socket through CallDirectory) and the webhook
 * deliveries that announce them. startSandbox() makes it and registers its routes.
 */
import { randomUUID } from 'node:crypto';
import type { AudioDecoder } from '../audio/decode';
import type { Clock } from '../clock';
import type { FileStore } from '../files/store';
import type { Route } from '../route';
import type { TtsService } from '../tts/service';
import { SimulatedCall, type CallTimer } from './call';
import type { CallDirectory, CallEnd } from './call-link';
import type { CallRequest } from './call-request';
import { fileAudio, sayAudio, type CallerAudioResult } from './caller-audio';
import { phoneNumberRoutes } from './number-routes';
import { PhoneNumberStore } from './numbers';
import { deliver, incomingCallEvent, type Delivery } from './webhook';

/** Ended calls kept for the control API's status (the oldest dropped first). */
const KEPT_ENDED_CALLS = 1000;

export interface SipOptions {
  /** Waits between webhook attempts (default webhook.ts RETRY_DELAYS_MS); tests shorten them. */
  webhookRetryDelaysMs?: readonly number[];
  webhookTimeoutMs?: number;
  /** How long a call rings before it ends unanswered (default 60 s). */
  ringTimeoutMs?: number;
  /** How long a call waits for a socket to join again after its socket left (default 30 s). */
  rejoinGraceMs?: number;
  /** Call timelines' time (tests); default real timers. */
  timer?: CallTimer;
}

export interface SipDeps {
  clock: Clock;
  log: (line: string) => void;
  tts: TtsService;
  files: FileStore;
  decoder: AudioDecoder;
  options?: SipOptions;
}

export interface PlacedCall {
  call: SimulatedCall;
  phoneNumberId: string;
  createdAt: number;
  delivery: Delivery;
  stopDelivery: AbortController;
}

export type PlaceResult = { ok: true; placed: PlacedCall } | { ok: false; status: 400 | 404; message: string };

export class SipService implements CallDirectory {
  readonly numbers = new PhoneNumberStore();
  private readonly calls = new Map<string, PlacedCall>();
  private readonly abort = new AbortController();

  constructor(private readonly deps: SipDeps) {}

  /** The `/v2/phone-numbers` routes (API key). */
  routes(): Route[] {
    return phoneNumberRoutes(this.numbers, this.deps.clock, this.deps.log);
  }

  /** A call of the team (CallDirectory: what the realtime socket joins). */
  find(callId: string, team: string): SimulatedCall | undefined {
    return this.placed(callId, team)?.call;
  }

  placed(callId: string, team: string): PlacedCall | undefined {
    const placed = this.calls.get(callId);
    return placed && placed.call.team === team ? placed : undefined;
  }

  /** Places a simulated inbound call to one of the team's numbers and starts its webhook delivery. */
  async place(team: string, request: CallRequest): Promise<PlaceResult> {
    const registered = this.numbers.lookup(request.to);
    if (!registered || registered.number.team_id !== team) {
      return { ok: false, status: 404, message: `to: ${request.to} is not one of your team's phone numbers: register it first (POST /v2/phone-numbers), then call it.` };
    }
    const { deps } = this;
    const media = { tts: deps.tts, files: deps.files, decoder: deps.decoder, clock: deps.clock };
    let audio: CallerAudioResult = { ok: true, audio: new Uint8Array(0) };
    if (request.say !== null) audio = await sayAudio(media, team, request.say, this.abort.signal);
    else if (request.audioFileId !== null) audio = await fileAudio(media, team, request.audioFileId);
    if (!audio.ok) return audio;
    if (this.abort.signal.aborted) return { ok: false, status: 400, message: 'The sandbox is closing.' };

    const callId = randomUUID();
    const { options = {} } = deps;
    const stopDelivery = new AbortController();
    const call = new SimulatedCall({
      callId,
      team,
      from: request.from,
      to: request.to,
      script: { audio: audio.audio, dtmf: request.dtmf, hangupAfterMs: request.hangupAfterMs, waitForGreeting: request.waitForGreeting },
      timer: options.timer,
      ringTimeoutMs: options.ringTimeoutMs,
      rejoinGraceMs: options.rejoinGraceMs,
      onEnd: (end) => this.ended(callId, end),
    });
    const delivery: Delivery = { webhookId: `msg_${randomUUID().replace(/-/g, '')}`, url: registered.webhook.url, attempts: [], state: 'delivering' };
    const placed: PlacedCall = { call, phoneNumberId: registered.number.phone_number_id, createdAt: deps.clock.now(), delivery, stopDelivery };
    this.calls.set(callId, placed);
    deps.log(`sip: call ${callId} from ${request.from} to ${request.to} ringing (${(audio.audio.length / 8000).toFixed(1)} s of caller audio, ${request.dtmf.length} keys)`);
    const event = incomingCallEvent(callId, request.from, request.to, deps.clock.seconds());
    const signal = AbortSignal.any([stopDelivery.signal, this.abort.signal]);
    void deliver(event, { url: registered.webhook.url, secret: registered.webhook.secret }, delivery, { clock: deps.clock, log: deps.log, retryDelaysMs: options.webhookRetryDelaysMs, attemptTimeoutMs: options.webhookTimeoutMs }, signal, () => call.state === 'ringing');
    return { ok: true, placed };
  }

  /** Ends every call and stops every delivery. */
  close(): void {
    this.abort.abort();
    for (const { call } of this.calls.values()) call.end('sandbox_closed', 'The sandbox closed.');
    this.calls.clear();
    this.numbers.clear();
  }

  private ended(callId: string, end: CallEnd): void {
    const placed = this.calls.get(callId);
    placed?.stopDelivery.abort();
    this.deps.log(`sip: call ${callId} ended (${end.reason}${end.target ? ` to ${end.target}` : ''})`);
    let ended = 0;
    for (const p of this.calls.values()) if (p.call.state === 'ended') ended++;
    for (const [id, p] of this.calls) {
      if (ended <= KEPT_ENDED_CALLS) break;
      if (p.call.state === 'ended') {
        this.calls.delete(id);
        ended--;
      }
    }
  }
}

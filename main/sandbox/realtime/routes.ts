/**
 * The realtime family's routes: `POST /v1/realtime/client_secrets` and the WebSocket
 * `/v1/realtime` (wire-notes §2.1). Everything that can refuse a connection does so before the
 * 101, as an HTTP answer with the native JSON body (socket-route.ts):
 *   auth: the API key as Bearer, or a client secret as Bearer or as the subprotocol
 *   `svc-client-secret.<secret>` (echoed in the 101); an unknown secret 401, an expired one 401
 *   saying when it expired (sandbox clock);
 *   query: `model` (one of the realtime models, 404 otherwise), `reasoning.effort` (high|none),
 *   `call_id` (API key only: 403 with a client secret; an unknown call 404), `conversation_id`
 *   (no resumption here: 404); any other name, or a name given twice, 400.
 */
import type { IncomingMessage } from 'node:http';
import { REALTIME_MODELS, REALTIME_REASONING_EFFORTS } from '../../../shared/wire/realtime';
import { isObject } from '../../../shared/validate/violations';
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import type { Route } from '../route';
import { clientSecretFromProtocols, type SocketAuthInput, type SocketIdentity, type SocketRoute } from '../socket-route';
import type { TtsService } from '../tts/service';
import type { SandboxCallDirectory, SandboxCallLink } from './call-link';
import { ClientSecretStore, clientSecretRoutes, type ClientSecretRecord } from './client-secrets';
import { DEFAULT_REALTIME_MODEL, type VoiceCheck } from './session-config';
import { openRealtimeSession } from './session';

export interface RealtimeOptions {
  /** How far (ms of audio) the model's audio may run ahead of real time; default 1000. Infinity: no pacing. */
  audioLeadMs?: number;
  /** Seconds between `ping` keep-alives; default 20 s (ms here). */
  pingIntervalMs?: number;
  /** Live SIP calls (main/sandbox/sip's CallDirectory fits); none: every call_id is unknown. */
  calls?: SandboxCallDirectory;
}

export interface RealtimeDeps {
  clock: Clock;
  tts: TtsService;
  /** Built-in voices and the team's custom voices. */
  voiceOk: (team: string) => VoiceCheck;
  tokenDelayMs: number;
  log: (line: string) => void;
  options: RealtimeOptions;
}

/** How a connection authenticated (kept from `authenticate` to `check` and `open`). */
export interface RealtimeAuth {
  kind: 'key' | 'client_secret';
  secret: ClientSecretRecord | null;
}

export interface RealtimeChecked {
  auth: RealtimeAuth;
  model: string;
  effort: 'high' | 'none';
  call: SandboxCallLink | null;
}

const QUERY_NAMES = ['model', 'reasoning.effort', 'call_id', 'conversation_id'];

export class RealtimeFamily {
  readonly secrets: ClientSecretStore;
  private readonly auths = new WeakMap<IncomingMessage, RealtimeAuth>();

  constructor(private readonly deps: RealtimeDeps) {
    this.secrets = new ClientSecretStore(deps.clock);
  }

  routes(): Route[] {
    return clientSecretRoutes(this.secrets, this.deps.voiceOk);
  }

  socketRoutes(): SocketRoute[] {
    const route: SocketRoute<RealtimeChecked> = {
      path: '/v1/realtime',
      // An append of a few seconds of 48 kHz PCM in base64 is ~0.5 MB; room for long ones.
      maxPayload: 16 * 1024 * 1024,
      authenticate: (input) => this.authenticate(input),
      check: (ctx) => this.check(ctx.req, ctx.team, ctx.query),
      open: (ctx, checked) => openRealtimeSession(ctx, checked, this.deps),
    };
    return [route];
  }

  close(): void {
    this.secrets.clear();
  }

  private live(value: string, how: string): ClientSecretRecord {
    const record = this.secrets.find(value);
    if (!record) throw new SandboxError(401, `The client secret offered ${how} is not valid: mint one with POST /v1/realtime/client_secrets, or connect with the API key as "Authorization: Bearer <API key>".`);
    if (this.secrets.expired(record)) {
      throw new SandboxError(401, `The client secret offered ${how} expired at ${new Date(record.expiresAt * 1000).toISOString()} (sandbox clock): mint a new one with POST /v1/realtime/client_secrets.`);
    }
    return record;
  }

  private authenticate(input: SocketAuthInput): SocketIdentity {
    const offered = clientSecretFromProtocols(input.protocols);
    if (offered) {
      const record = this.live(offered.secret, 'as the subprotocol');
      this.auths.set(input.req, { kind: 'client_secret', secret: record });
      return { team: record.team, protocol: offered.protocol };
    }
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '')?.[1];
    if (bearer !== undefined && !input.keyRing.keys.includes(bearer) && this.secrets.find(bearer)) {
      const record = this.live(bearer, 'as the Bearer token');
      this.auths.set(input.req, { kind: 'client_secret', secret: record });
      return { team: record.team };
    }
    // The API key, with the HTTP routes' messages (401 missing or malformed, 400 unknown).
    const team = input.keyRing.authenticate(input.authorization);
    this.auths.set(input.req, { kind: 'key', secret: null });
    return { team };
  }

  private check(req: IncomingMessage, team: string, query: URLSearchParams): RealtimeChecked {
    const auth = this.auths.get(req) ?? { kind: 'key', secret: null };
    const problems: string[] = [];
    const names = [...new Set(query.keys())];
    const unknown = names.filter((n) => !QUERY_NAMES.includes(n));
    if (unknown.length > 0) problems.push(`unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the realtime socket takes ${QUERY_NAMES.join(', ')})`);
    for (const n of names) if (query.getAll(n).length > 1) problems.push(`${n} is given ${query.getAll(n).length} times`);
    const effort = query.get('reasoning.effort') ?? 'high';
    if (!(REALTIME_REASONING_EFFORTS as readonly string[]).includes(effort)) problems.push(`reasoning.effort must be "high" or "none"; got ${JSON.stringify(effort)}`);
    if (problems.length > 0) throw new SandboxError(400, `${problems.join('; ')}.`);
    const callId = query.get('call_id');
    let call: SandboxCallLink | null = null;
    if (callId !== null) {
      if (auth.kind !== 'key') throw new SandboxError(403, 'Joining a SIP call (call_id) needs the API key ("Authorization: Bearer <API key>"); client secrets cannot join calls.');
      call = this.deps.options.calls?.find(callId, team) ?? null;
      if (!call || call.team !== team) throw new SandboxError(404, `No live call ${callId}: join a call with the call_id of its realtime.call.incoming webhook while it is ringing or connected.`);
    }
    const conversation = query.get('conversation_id');
    if (conversation !== null) throw new SandboxError(404, `No conversation ${conversation} to resume: the sandbox keeps no conversation after its socket closes. Connect without conversation_id and seed the history with conversation.item.create.`);
    // The model is ignored when joining a call (spec table); otherwise checked.
    const model = query.get('model');
    if (model !== null && call === null && !(REALTIME_MODELS as readonly string[]).includes(model)) {
      throw new SandboxError(404, `The model ${model} does not exist or is not a realtime model: use one of ${REALTIME_MODELS.join(', ')}.`);
    }
    const fromSecret = auth.secret?.session;
    const secretModel = isObject(fromSecret) && typeof fromSecret.model === 'string' ? fromSecret.model : null;
    return { auth, model: secretModel ?? (call ? DEFAULT_REALTIME_MODEL : (model ?? DEFAULT_REALTIME_MODEL)), effort: effort as 'high' | 'none', call };
  }
}

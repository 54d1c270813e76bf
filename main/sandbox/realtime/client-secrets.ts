/**
 * Ephemeral client secrets (`POST /v1/realtime/client_secrets`, wire-notes §6.4): a browser opens
 * `/v1/realtime` with one instead of the API key. `expires_after.seconds` 1-3600 (default 600) on
 * the sandbox clock (so `POST /sandbox/clock/advance` expires them); the optional `session` is
 * checked with the `session.update` rules now and applied when a socket connects with the secret.
 * Secrets live in memory only: a restarted sandbox has none, as a client would expect of an
 * ephemeral credential.
 */
import { randomBytes } from 'node:crypto';
import { REALTIME_LIMITS } from '../../../shared/wire/realtime';
import { isObject } from '../../../shared/validate/violations';
import type { Clock } from '../clock';
import { SandboxError } from '../errors';
import { sendJson, type Route } from '../route';
import { applySessionUpdate, defaultSession, type VoiceCheck } from './session-config';

export interface ClientSecretRecord {
  value: string;
  team: string;
  /** Unix seconds on the sandbox clock. */
  expiresAt: number;
  /** The `session` given at mint (already checked), applied on connect. */
  session: Record<string, unknown> | null;
}

export class ClientSecretStore {
  private readonly secrets = new Map<string, ClientSecretRecord>();

  constructor(private readonly clock: Clock) {}

  mint(team: string, seconds: number, session: Record<string, unknown> | null): ClientSecretRecord {
    this.prune();
    const record = { value: `cs-sandbox-${randomBytes(18).toString('hex')}`, team, expiresAt: this.clock.seconds() + seconds, session };
    this.secrets.set(record.value, record);
    return record;
  }

  /** The secret's record, live or expired (the caller says which); undefined when never minted here. */
  find(value: string): ClientSecretRecord | undefined {
    return this.secrets.get(value);
  }

  expired(record: ClientSecretRecord): boolean {
    return this.clock.now() >= record.expiresAt * 1000;
  }

  /** Drops secrets expired over an hour ago (still told apart from unknown ones for a while). */
  private prune(): void {
    const cutoff = this.clock.seconds() - 3600;
    for (const [k, r] of this.secrets) if (r.expiresAt < cutoff) this.secrets.delete(k);
  }

  clear(): void {
    this.secrets.clear();
  }
}

/** `POST /v1/realtime/client_secrets`: 422 for a wrong JSON type, 400 for a broken rule or unknown field. */
export function clientSecretRoutes(store: ClientSecretStore, voiceOk: (team: string) => VoiceCheck): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/realtime/client_secrets',
      handle(ctx) {
        const body = ctx.body === undefined ? {} : ctx.body;
        if (!isObject(body)) throw new SandboxError(422, 'The body must be a JSON object: {"expires_after":{"seconds":600},"session":{…}} (both optional).');
        const unknown = Object.keys(body).filter((k) => k !== 'expires_after' && k !== 'session');
        if (unknown.length > 0) throw new SandboxError(400, `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: a client secret takes expires_after and session.`);
        let seconds: number = REALTIME_LIMITS.clientSecretSecondsDefault;
        const after = body.expires_after;
        if (after !== undefined && after !== null) {
          if (!isObject(after)) throw new SandboxError(422, 'expires_after must be an object: {"seconds": 600}.');
          const extra = Object.keys(after).filter((k) => k !== 'seconds' && k !== 'anchor');
          if (extra.length > 0) throw new SandboxError(400, `Unknown field expires_after.${extra[0]}: expires_after takes seconds (and anchor "created_at").`);
          if (after.anchor !== undefined && after.anchor !== 'created_at') throw new SandboxError(400, `expires_after.anchor must be "created_at"; got ${JSON.stringify(after.anchor)}.`);
          if (after.seconds !== undefined) {
            if (typeof after.seconds !== 'number' || !Number.isInteger(after.seconds)) throw new SandboxError(422, 'expires_after.seconds must be an integer.');
            if (after.seconds < 1 || after.seconds > REALTIME_LIMITS.clientSecretSecondsMax) {
              throw new SandboxError(400, `expires_after.seconds must be between 1 and ${REALTIME_LIMITS.clientSecretSecondsMax}; got ${after.seconds}.`);
            }
            seconds = after.seconds;
          }
        }
        let session: Record<string, unknown> | null = null;
        if (body.session !== undefined && body.session !== null) {
          if (!isObject(body.session)) throw new SandboxError(422, 'session must be an object (the session settings applied when the secret connects).');
          const checked = applySessionUpdate(defaultSession('', 'svc-voice-latest', 'high'), body.session, voiceOk(ctx.team));
          if ('issues' in checked) throw new SandboxError(400, `The session is not valid: ${checked.issues.map((i) => i.message).join('; ')}.`);
          session = body.session;
        }
        const record = store.mint(ctx.team, seconds, session);
        sendJson(ctx.res, 200, { value: record.value, expires_at: record.expiresAt });
      },
    },
  ];
}

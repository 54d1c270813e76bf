/**
 * The SIP family's service (its methods are the `sip.*` operations): phone numbers registered and
 * listed through main/api/phone-numbers.ts, their signing secrets kept with the keys
 * (signing-secrets.ts) and loaded into the loopback receiver (main/webhooks), which is started
 * for a number registered with a loopback URL (at start-up too, so a call rings with no window),
 * or on demand. A verified delivery is a ringing call: announced to every window and handed to
 * `onIncomingCall` (the live `sip-call` session). Refer and hangup go to the service.
 */
import { toWorkbenchError } from '../../api/errors';
import { createPhoneNumber, hangupCall, listPhoneNumbers, pressSandboxKeys, referCall } from '../../api/phone-numbers';
import { checkDigits } from '../../../shared/sip/rules';
import type { ApiResult } from '../../api/client';
import type { ConnectionsService } from '../../services/connections-service';
import type { Db } from '../../store/db';
import type { KeyStore } from '../../store/key-store';
import { getSetting, setSetting } from '../../store/settings';
import { WebhookReceiver, type IncomingCall, type ReceiverStatus } from '../../webhooks/receiver';
import { ROTATION_GRACE_MS, SecretRing } from '../../webhooks/secret-ring';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { TypedEmit } from '../../../shared/contract/typed-emit';
import type { SipCall, SipNumbers, SipReceiverStatus, SipRegistered, SipRegisterInput } from '../../../shared/families/sip/contract';
import type { LiveRegistry } from '../../live/registry';
import { SipCalls } from './sip-calls';
import type { PhoneNumberCreate } from '../../../shared/wire/sip';
import { SigningSecrets } from './signing-secrets';

/** The setting that keeps the receiver's port, so a registered loopback URL stays valid across launches. */
export const RECEIVER_PORT_SETTING = 'sip.receiverPort';

export interface SipServiceDeps {
  db: Db;
  connections: ConnectionsService;
  keyStore: KeyStore;
  emit: TypedEmit;
  log: (line: string) => void;
  /** The port the receiver tries first (else the one it had last time, else any free one). */
  receiverPort?: number;
  /** Where each incoming call's `sip-call` live session starts (null while the registry is not made yet). */
  live: () => LiveRegistry | null;
  /** A desktop notification when a call rings (Electron; browser mode has none). */
  notify?: (title: string, body: string) => void;
}

/** Whether `url` points at this computer (the receiver can serve it). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Whether a connection's callers are simulated (the sandbox's control API presses their keys):
 * the built-in sandbox connection, and only it. A loopback URL says nothing: a service's local
 * gateway, a tunnel or a proxy listens on loopback too, and has no control API (its callers are
 * real people, pressing keys on their own phones).
 */
export function simulatesCallers(c: { isSandbox: boolean }): boolean {
  return c.isSandbox;
}

/** The port kept from the last launch, when it is one (a damaged setting: any free port). */
function keptPort(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65536 ? value : undefined;
}

/** `sip_auth` as the spec has it: the allowed CIDR blocks and/or digest credentials; left out when neither is given. */
function sipAuth(input: SipRegisterInput): Pick<PhoneNumberCreate, 'sip_auth'> {
  const addresses = input.allowedAddresses ?? [];
  if (addresses.length === 0 && !input.digest) return {};
  return { sip_auth: { ...(addresses.length > 0 ? { allowed_addresses: addresses } : {}), ...(input.digest ? { username: input.digest.username, password: input.digest.password } : {}) } };
}

function unwrap<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new WorkbenchFailure(toWorkbenchError(result.error));
  return result.value;
}

export class SipService {
  private readonly ring = new SecretRing();
  private readonly secrets: SigningSecrets;
  private readonly receiverServer: WebhookReceiver;
  private readonly callBook: SipCalls;

  constructor(private readonly deps: SipServiceDeps) {
    this.secrets = new SigningSecrets(deps.keyStore, deps.log);
    const client = (connectionId?: string) => deps.connections.resolve(connectionId).client;
    this.callBook = new SipCalls({
      live: deps.live,
      notify: deps.notify,
      isSandbox: (connectionId) => {
        return simulatesCallers(deps.connections.resolve(connectionId));
      },
      emit: deps.emit,
      log: deps.log,
      direct: {
        hangup: async (connectionId, callId) => void unwrap(await hangupCall(client(connectionId), callId)),
        refer: async (connectionId, callId, target) => void unwrap(await referCall(client(connectionId), callId, target)),
      },
    });
    for (const [id, entry] of this.secrets.all()) {
      this.ring.set(id, entry.secret);
      if (entry.previous && entry.previous.until > Date.now()) {
        // The rotation is still in its grace: both secrets verify until it ends.
        this.ring.set(id, entry.previous.secret);
        this.ring.rotate(id, entry.secret, entry.previous.until - Date.now());
      }
    }
    this.receiverServer = new WebhookReceiver({
      secrets: this.ring,
      log: deps.log,
      port: deps.receiverPort ?? keptPort(getSetting<unknown>(deps.db, RECEIVER_PORT_SETTING)),
      onStatus: (status) => deps.emit('sip.receiverChanged', status),
      onIncomingCall: (call) => this.incoming(call),
    });
  }

  /** At start-up: listens when a kept number's webhook is on this computer, so its calls ring with no window open. */
  async resume(): Promise<void> {
    if ([...this.secrets.all().values()].some((e) => isLoopbackUrl(e.webhookUrl))) await this.startServer();
  }

  async numbers(input: { connectionId?: string } | undefined): Promise<SipNumbers> {
    const { client, profile } = this.deps.connections.resolve(input?.connectionId);
    const list = unwrap(await listPhoneNumbers(client));
    return {
      connectionId: profile.id,
      numbers: list.phone_numbers.map((number) => ({ number, secretKept: this.secrets.has(number.phone_number_id) })),
      receiver: this.receiver(),
    };
  }

  async register(input: SipRegisterInput): Promise<SipRegistered> {
    const { client, profile } = this.deps.connections.resolve(input.connectionId);
    let webhookUrl = input.webhookUrl;
    if (!webhookUrl) {
      const status = await this.startServer();
      if (!status.url) throw new WorkbenchFailure({ code: 'config', message: `No webhook URL was given and the receiver is not listening: ${status.problem ?? 'it did not start'}.` });
      webhookUrl = status.url;
    } else if (isLoopbackUrl(webhookUrl)) {
      await this.startServer();
    }
    const body: PhoneNumberCreate = {
      origin: input.origin,
      name: input.name,
      ...(input.phoneNumber ? { phone_number: input.phoneNumber } : {}),
      webhook: { url: webhookUrl, ...(input.webhookName ? { name: input.webhookName } : {}) },
      ...sipAuth(input),
    };
    const made = unwrap(await createPhoneNumber(client, body));
    const id = made.phone_number.phone_number_id;
    const secret = made.webhook.dispatch_signing_secret;
    this.ring.set(id, secret);
    const kept = this.secrets.save(id, { secret, connectionId: profile.id, phoneNumber: made.phone_number.phone_number, webhookUrl });
    this.deps.log(`sip: ${made.phone_number.phone_number} registered (${id}); its signing secret ${kept.stored ? `is stored with the keys (${kept.backend})` : 'is kept in memory only'}`);
    return { number: made.phone_number, signingSecret: secret, secret: kept, receiver: this.receiver() };
  }

  async keepSecret(input: { connectionId?: string; phoneNumberId: string; phoneNumber: string; webhookUrl?: string; secret: string }): Promise<{ rotated: boolean; until: number | null; secret: SipRegistered['secret'] }> {
    const profile = this.deps.connections.resolve(input.connectionId).profile;
    const old = this.secrets.all().get(input.phoneNumberId);
    const webhookUrl = input.webhookUrl || old?.webhookUrl || '';
    const rotated = old !== undefined && old.secret !== input.secret;
    const until = rotated ? Date.now() + ROTATION_GRACE_MS : null;
    if (rotated) this.ring.rotate(input.phoneNumberId, input.secret, ROTATION_GRACE_MS);
    else this.ring.set(input.phoneNumberId, input.secret);
    const kept = this.secrets.save(input.phoneNumberId, { secret: input.secret, connectionId: profile.id, phoneNumber: input.phoneNumber, webhookUrl, previous: rotated && old && until ? { secret: old.secret, until } : null });
    if (isLoopbackUrl(webhookUrl)) await this.startServer();
    this.deps.log(`sip: a signing secret for ${input.phoneNumber} (${input.phoneNumberId}) was given by hand${rotated ? '; the previous one is accepted for a day' : ''}`);
    return { rotated, until, secret: kept };
  }

  receiver(): SipReceiverStatus {
    return this.receiverServer.status();
  }

  startReceiver(): Promise<SipReceiverStatus> {
    return this.startServer();
  }

  calls(): SipCall[] {
    return this.callBook.list();
  }

  answer(input: { callId: string }): Promise<{ mediaSessionId: string }> {
    return this.callBook.answer(input.callId);
  }

  async decline(input: { connectionId?: string; callId: string }): Promise<{ ok: true }> {
    await this.callBook.decline(input.callId, input.connectionId);
    return { ok: true };
  }

  async refer(input: { connectionId?: string; callId: string; target: string }): Promise<{ ok: true }> {
    await this.callBook.refer(input.callId, input.target, input.connectionId);
    return { ok: true };
  }

  /** The sandbox's simulated caller presses keys; a real service's caller presses their own phone's. */
  async pressKeys(input: { connectionId?: string; callId: string; digits: string }): Promise<{ ok: true }> {
    const { client, profile, isSandbox } = this.deps.connections.resolve(this.callBook.connectionOf(input.callId) ?? input.connectionId);
    if (!simulatesCallers({ isSandbox })) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: `Keys can only be pressed for the simulated caller of the built-in sandbox. Call ${input.callId} is on "${profile.name}" (${profile.baseUrl}), not the built-in sandbox: its caller presses keys on their own phone, and they show here as they arrive.` });
    }
    const problem = checkDigits('digits', input.digits, 32);
    if (problem) throw new WorkbenchFailure({ code: 'invalid_input', message: problem, issues: [{ path: 'digits', message: problem }] });
    unwrap(await pressSandboxKeys(client, input.callId, input.digits));
    return { ok: true };
  }

  async hangup(input: { connectionId?: string; callId: string }): Promise<{ ok: true }> {
    await this.callBook.hangup(input.callId, input.connectionId);
    return { ok: true };
  }

  async dispose(): Promise<void> {
    this.callBook.detachAll();
    await this.receiverServer.stop();
  }

  private async startServer(): Promise<ReceiverStatus> {
    const status = await this.receiverServer.start();
    if (status.port !== null && getSetting<number>(this.deps.db, RECEIVER_PORT_SETTING) !== status.port) setSetting(this.deps.db, RECEIVER_PORT_SETTING, status.port);
    return status;
  }

  private async incoming(call: IncomingCall): Promise<void> {
    // The number whose secret verified it says which connection answers it (else the active one).
    const owner = this.secrets.all().get(call.secretId.replace(/:previous$/, ''));
    const connectionId = owner?.connectionId ?? this.deps.connections.resolve().profile.id;
    await this.callBook.ring(call, connectionId);
  }
}

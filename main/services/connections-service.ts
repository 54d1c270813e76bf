/**
 * Connections: the built-in sandbox and the user's profiles. This service is the only code that
 * reads API keys (through a KeyStore) and it hands out one ApiClient per profile; keys never leave
 * main. The active connection is a setting; the sandbox is the default on first launch.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient } from '../api/client';
import { SecretScrubber } from '../api/secret-scrubber';
import { listModels } from '../api/models';
import { toWorkbenchError } from '../api/errors';
import {
  SANDBOX_CONNECTION_ID,
  type ConnectionProfile,
  type ConnectionsState,
  type ConnectionTestResult,
  type SandboxPortSource,
  type SaveConnectionInput,
} from '../../shared/contract/connections';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { TypedEmit } from '../../shared/contract/typed-emit';
import type { Db } from '../store/db';
import { deleteConnection, getConnection, listConnections, upsertConnection } from '../store/connections';
import { getSetting, setSetting } from '../store/settings';
import type { KeyStore } from '../store/key-store';

const ACTIVE_SETTING = 'connections.active';
/** The built-in sandbox's port chosen in Connections (a number), read at the next launch. */
export const SANDBOX_PORT_SETTING = 'sandbox.port';

/** Where the embedded sandbox listens, and the key it accepts. */
export interface SandboxEndpoint {
  url: string;
  key: string;
  /** The port it listens on, the one it tried first, and where that one came from. */
  port: number;
  preferredPort: number;
  preferredSource: SandboxPortSource;
}

export interface ResolvedConnection {
  profile: ConnectionProfile;
  client: ApiClient;
  isSandbox: boolean;
}

export interface ConnectionsServiceOptions {
  db: Db;
  keyStore: KeyStore;
  sandbox: SandboxEndpoint;
  emit: TypedEmit;
  /** Told each API key as it comes into use (a client made for it, or a save): the log masks them. */
  onSecret?: (secret: string) => void;
  now?: () => number;
}

const KEY_STORAGE_WARNINGS: Partial<Record<KeyStore['backend'], string>> = {
  basic_text:
    'API keys are stored with a plain-text fallback because no system keyring was found (Electron safeStorage backend "basic_text"). Install and unlock a keyring (GNOME Keyring or KWallet) to encrypt them.',
  unavailable: 'Encryption is not available on this system, so API keys cannot be saved. Use the sandbox, or fix the system keyring.',
};

export class ConnectionsService {
  private readonly clients = new Map<string, ApiClient>();
  /** Every saved key's scrubber; rebuilt after a save or a removal. */
  private secrets: SecretScrubber | null = null;
  private readonly now: () => number;

  constructor(private readonly options: ConnectionsServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  state(): ConnectionsState {
    const profiles = this.profiles();
    const activeId = this.activeId(profiles);
    const backend = this.options.keyStore.backend;
    const { key, port, preferredPort, preferredSource } = this.options.sandbox;
    const configured = getSetting<unknown>(this.options.db, SANDBOX_PORT_SETTING);
    return {
      activeId,
      profiles,
      keyStorage: { backend, warning: KEY_STORAGE_WARNINGS[backend] ?? null },
      // The sandbox's key is shown (Connections, code export): local and synthetic, it guards nothing.
      sandbox: { key, port, preferredPort, preferredSource, configuredPort: typeof configured === 'number' ? configured : null },
    };
  }

  /** Sets (or with null clears) the sandbox's port for the next launch; the running sandbox stays where it is. */
  setSandboxPort(port: number | null): ConnectionsState {
    setSetting(this.options.db, SANDBOX_PORT_SETTING, port ?? undefined);
    return this.changed();
  }

  save(input: SaveConnectionInput): ConnectionProfile {
    if (input.id === SANDBOX_CONNECTION_ID) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: 'The built-in sandbox cannot be edited.' });
    }
    const stored = input.id ? getConnection(this.options.db, input.id) : null;
    if (input.id && !stored) {
      throw new WorkbenchFailure({ code: 'not_found', message: `No connection with id "${input.id}".` });
    }
    if (stored && input.baseRevision !== undefined && input.baseRevision !== stored.updatedAt) {
      throw new WorkbenchFailure({
        code: 'conflict',
        message: `Not saved: "${stored.name}" was changed in another window since this form opened (it is now "${stored.name}" at ${stored.baseUrl}). Save again to replace it with yours, or Cancel to keep that version.`,
      });
    }
    const id = input.id ?? `conn-${randomBytes(6).toString('hex')}`;
    const apiKey = input.apiKey?.trim();
    if (apiKey) {
      if (this.options.keyStore.backend === 'unavailable') {
        throw new WorkbenchFailure({ code: 'config', message: KEY_STORAGE_WARNINGS.unavailable! });
      }
      this.options.keyStore.set(id, apiKey);
      this.options.onSecret?.(apiKey);
    }
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    // The revision is the update time, kept strictly increasing so two saves never share one.
    upsertConnection(this.options.db, { id, name: input.name, baseUrl }, Math.max(this.now(), (stored?.updatedAt ?? 0) + 1));
    this.dropClient(id);
    this.changed();
    return this.profile(id);
  }

  remove(id: string): ConnectionsState {
    if (id === SANDBOX_CONNECTION_ID) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: 'The built-in sandbox cannot be removed.' });
    }
    if (!deleteConnection(this.options.db, id)) {
      throw new WorkbenchFailure({ code: 'not_found', message: `No connection with id "${id}".` });
    }
    this.options.keyStore.delete(id);
    this.dropClient(id);
    if (getSetting<string>(this.options.db, ACTIVE_SETTING) === id) setSetting(this.options.db, ACTIVE_SETTING, SANDBOX_CONNECTION_ID);
    return this.changed();
  }

  select(id: string): ConnectionsState {
    this.profile(id);
    setSetting(this.options.db, ACTIVE_SETTING, id);
    return this.changed();
  }

  /** Lists the models with the profile's key: the cheapest request that proves URL and key work. */
  async test(id: string): Promise<ConnectionTestResult> {
    const { client } = this.resolve(id);
    const started = performance.now();
    const result = await listModels(client);
    if (!result.ok) throw new WorkbenchFailure(toWorkbenchError(result.error));
    return {
      ok: true,
      models: result.value.data.map((m) => m.id),
      latencyMs: Math.round(performance.now() - started),
    };
  }

  /**
   * A scrubber that knows every saved API key (not only the active connection's): for what is
   * read back from History, where a run of any connection may be shown.
   */
  knownSecrets(): SecretScrubber {
    this.secrets ??= new SecretScrubber(listConnections(this.options.db).map(({ id }) => this.options.keyStore.get(id)));
    return this.secrets;
  }

  /** The profile to use (the active one when id is omitted) with its client. */
  resolve(id?: string): ResolvedConnection {
    const profile = this.profile(id ?? this.activeId(this.profiles()));
    let client = this.clients.get(profile.id);
    if (!client) {
      const isSandbox = profile.kind === 'sandbox';
      const key = isSandbox ? this.options.sandbox.key : this.options.keyStore.get(profile.id);
      if (!key && !isSandbox) {
        throw new WorkbenchFailure({
          code: 'config',
          message: `The connection "${profile.name}" has no API key. Add one in Connections.`,
        });
      }
      // A key reaches the log only through a request on its client: the log learns it here (and
      // on save), not by decrypting every saved key at start-up.
      if (key && !isSandbox) this.options.onSecret?.(key);
      client = new ApiClient({ baseUrl: profile.baseUrl, apiKey: key });
      this.clients.set(profile.id, client);
    }
    return { profile, client, isSandbox: profile.kind === 'sandbox' };
  }

  /**
   * The base URL and key of a connection (the active one without an id), for a socket opened in
   * the media process (live sessions), which cannot share this process's ApiClient. Main hands
   * them over its private channel to that process only; never to a page.
   */
  credentials(id?: string): { profile: ConnectionProfile; apiKey: string | null; isSandbox: boolean; scrubber: ApiClient['scrubber'] } {
    const { profile, client, isSandbox } = this.resolve(id);
    const apiKey = isSandbox ? this.options.sandbox.key : (this.options.keyStore.get(profile.id) ?? null);
    return { profile, apiKey, isSandbox, scrubber: client.scrubber };
  }

  async dispose(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(clients.map((c) => c.dispose()));
  }

  /** The active profile's id (the sandbox when the stored one is gone). */
  private activeId(profiles: ConnectionProfile[]): string {
    const stored = getSetting<string>(this.options.db, ACTIVE_SETTING);
    return stored && profiles.some((p) => p.id === stored) ? stored : SANDBOX_CONNECTION_ID;
  }

  private profiles(): ConnectionProfile[] {
    const sandbox: ConnectionProfile = {
      id: SANDBOX_CONNECTION_ID,
      name: 'Sandbox',
      kind: 'sandbox',
      baseUrl: this.options.sandbox.url,
      hasKey: true,
      revision: 0,
    };
    const stored = listConnections(this.options.db).map(
      (c): ConnectionProfile => ({
        id: c.id,
        name: c.name,
        kind: 'remote',
        baseUrl: c.baseUrl,
        hasKey: this.options.keyStore.get(c.id) !== null,
        revision: c.updatedAt,
      }),
    );
    return [sandbox, ...stored];
  }

  private profile(id: string): ConnectionProfile {
    const found = this.profiles().find((p) => p.id === id);
    if (!found) throw new WorkbenchFailure({ code: 'not_found', message: `No connection with id "${id}".` });
    return found;
  }

  private dropClient(id: string): void {
    this.secrets = null;
    const client = this.clients.get(id);
    this.clients.delete(id);
    void client?.dispose();
  }

  private changed(): ConnectionsState {
    const state = this.state();
    this.options.emit('connections.changed', state);
    return state;
  }
}

/**
 * The phone numbers' webhook signing secrets, kept with the API keys (the KeyStore: safeStorage
 * in Electron, the 0600 key file in browser mode), never in SQLite, logs or History. One entry,
 * `sip.signing-secrets`, holds them all as JSON, so they can be listed at start-up (the KeyStore
 * has no listing) and loaded into the receiver's SecretRing before any delivery can arrive.
 */
import { z } from 'zod';
import type { KeyStorageBackend } from '../../../shared/contract/connections';
import type { KeyStore } from '../../store/key-store';

export const SECRETS_KEY_ID = 'sip.signing-secrets';

const entrySchema = z.object({
  secret: z.string().min(1),
  connectionId: z.string(),
  phoneNumber: z.string(),
  webhookUrl: z.string(),
  /** The secret it replaced, accepted until `until` (unix ms). */
  previous: z.object({ secret: z.string(), until: z.number() }).nullable().default(null),
});
export type SecretEntry = z.infer<typeof entrySchema>;

const fileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), entrySchema) });

export interface SaveOutcome {
  stored: boolean;
  backend: KeyStorageBackend;
  warning: string | null;
}

export class SigningSecrets {
  private readonly entries: Map<string, SecretEntry>;

  constructor(private readonly keyStore: KeyStore, private readonly log: (line: string) => void) {
    this.entries = this.read();
  }

  private read(): Map<string, SecretEntry> {
    const raw = this.keyStore.get(SECRETS_KEY_ID);
    if (raw === null) return new Map();
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = null;
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      // Never log the content: it is secrets.
      this.log('sip: the stored webhook signing secrets could not be read; deliveries for earlier numbers will be refused until they are registered again');
      return new Map();
    }
    return new Map(Object.entries(parsed.data.secrets));
  }

  /** Every kept entry, by phone number id. */
  all(): ReadonlyMap<string, SecretEntry> {
    return this.entries;
  }

  has(phoneNumberId: string): boolean {
    return this.entries.has(phoneNumberId);
  }

  /** Keeps `entry` for `phoneNumberId`: in memory at least, in the key store when it can. */
  save(phoneNumberId: string, entry: Omit<SecretEntry, 'previous'> & { previous?: SecretEntry['previous'] }): SaveOutcome {
    this.entries.set(phoneNumberId, { ...entry, previous: entry.previous ?? null });
    return this.persist();
  }

  remove(phoneNumberId: string): void {
    if (this.entries.delete(phoneNumberId)) this.persist();
  }

  private persist(): SaveOutcome {
    const backend = this.keyStore.backend;
    try {
      this.keyStore.set(SECRETS_KEY_ID, JSON.stringify({ version: 1, secrets: Object.fromEntries(this.entries) }));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { stored: false, backend, warning: `The signing secret is kept in memory only until the app quits (${why}). Copy it now: calls to this number can be verified only while the app keeps it.` };
    }
    const warning =
      backend === 'basic_text'
        ? 'No system keyring was found, so the signing secret is stored with the API keys under a fixed password (Electron "basic_text"). Install and unlock a keyring to encrypt it.'
        : backend === 'file'
          ? 'Browser mode: the signing secret is stored with the API keys in a file only you can read (0600), not encrypted.'
          : null;
    return { stored: true, backend, warning };
  }
}

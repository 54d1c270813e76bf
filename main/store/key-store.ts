/**
 * Where API keys live, one per connection profile. Keys never go to the database, the logs or
 * the renderer. Implemented by the Electron shell (safeStorage) and by key-file.ts for browser
 * mode; createMemoryKeyStore serves tests.
 */
import type { KeyStorageBackend } from '../../shared/contract/connections';

export interface KeyStore {
  /** How keys are protected at rest; 'unavailable' means set() will throw. */
  readonly backend: KeyStorageBackend;
  /** The key stored for profile `id`, or null. */
  get(id: string): string | null;
  /** Stores (or replaces) the key for profile `id`. */
  set(id: string, key: string): void;
  /** Forgets the key for profile `id`; no error if there was none. */
  delete(id: string): void;
}

/** A KeyStore that keeps keys in memory only, for tests and throwaway sessions. */
export function createMemoryKeyStore(backend: KeyStorageBackend = 'file'): KeyStore {
  const keys = new Map<string, string>();
  return {
    backend,
    get: (id) => keys.get(id) ?? null,
    set: (id, key) => void keys.set(id, key),
    delete: (id) => void keys.delete(id),
  };
}

/**
 * API keys in Electron, encrypted with `safeStorage` (Keychain, DPAPI, libsecret/kwallet) and
 * kept as base64 blobs in a 0600 JSON file. On Linux without a keyring Electron falls back to
 * 'basic_text' (a hard-coded password): keys still work but the UI warns. When encryption is not
 * available at all, the backend is 'unavailable' and storing a key fails with a clear message.
 */
import { safeStorage } from 'electron';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KeyStorageBackend } from '../../shared/contract/connections';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { KeyStore } from '../store/key-store';
import { isObject } from '../../shared/is-object';

/** Which protection safeStorage gives here (call after `ready`). */
export function safeStorageBackend(platform: NodeJS.Platform = process.platform): KeyStorageBackend {
  if (!safeStorage.isEncryptionAvailable()) return 'unavailable';
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return 'basic_text';
  return 'safeStorage';
}

function readBlobs(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // A damaged file holds no key we could read; the user re-enters keys and the file is rewritten.
    return {};
  }
  if (!isObject(parsed)) return {};
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function writeBlobs(path: string, blobs: Record<string, string>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // Write-then-rename so a crash never leaves a half-written key file.
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(blobs, null, 2), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** A KeyStore over safeStorage, persisting encrypted blobs at `path`. */
export function createSafeStorageKeyStore(path: string, platform: NodeJS.Platform = process.platform): KeyStore {
  const backend = safeStorageBackend(platform);
  let blobs: Record<string, string> | null = null;
  const load = () => (blobs ??= readBlobs(path));

  return {
    backend,
    get(id) {
      const blob = load()[id];
      if (!blob || backend === 'unavailable') return null;
      try {
        return safeStorage.decryptString(Buffer.from(blob, 'base64'));
      } catch {
        // Encrypted under another user or keyring: as good as absent; the user can enter it again.
        return null;
      }
    },
    set(id, key) {
      if (backend === 'unavailable') {
        throw new WorkbenchFailure({
          code: 'config',
          message: 'This system offers no secure storage for API keys (no keyring is available), so the key was not saved.',
        });
      }
      const next = { ...load(), [id]: safeStorage.encryptString(key).toString('base64') };
      writeBlobs(path, next);
      blobs = next;
    },
    delete(id) {
      const current = load();
      if (!(id in current)) return;
      const { [id]: _removed, ...rest } = current;
      writeBlobs(path, rest);
      blobs = rest;
    },
  };
}

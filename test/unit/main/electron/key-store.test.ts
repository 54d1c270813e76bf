import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkbenchFailure } from '../../../../shared/contract/errors';

const electron = vi.hoisted(() => ({
  safeStorage: {
    isEncryptionAvailable: vi.fn(() => true),
    getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
    // Stand-in cipher: reversible, and never contains the plaintext.
    encryptString: vi.fn((plain: string) => Buffer.from(`enc:${Buffer.from(plain).toString('hex')}`)),
    decryptString: vi.fn((blob: Buffer) => {
      const text = blob.toString();
      if (!text.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice(4), 'hex').toString();
    }),
  },
}));
vi.mock('electron', () => electron);

const { createSafeStorageKeyStore, safeStorageBackend } = await import('../../../../main/electron/key-store');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wb-keys-'));
  electron.safeStorage.isEncryptionAvailable.mockReturnValue(true);
  electron.safeStorage.getSelectedStorageBackend.mockReturnValue('gnome_libsecret');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('key-store', () => {
  describe('safeStorageBackend()', () => {
    it("reports 'safeStorage' with a keyring, 'basic_text' on Linux without one, 'unavailable' without encryption", () => {
      expect(safeStorageBackend('linux')).toBe('safeStorage');
      electron.safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
      expect(safeStorageBackend('linux')).toBe('basic_text');
      expect(safeStorageBackend('darwin')).toBe('safeStorage');
      electron.safeStorage.isEncryptionAvailable.mockReturnValue(false);
      expect(safeStorageBackend('linux')).toBe('unavailable');
    });
  });

  describe('createSafeStorageKeyStore()', () => {
    it('keeps keys encrypted in a 0600 file and reads them back in a later session', () => {
      const path = join(dir, 'keys.enc.json');
      createSafeStorageKeyStore(path, 'linux').set('work', 'sk-live-123');
      expect(readFileSync(path, 'utf8')).not.toContain('sk-live-123');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(createSafeStorageKeyStore(path, 'linux').get('work')).toBe('sk-live-123');
    });

    it('forgets a deleted key and tolerates deleting a missing one', () => {
      const path = join(dir, 'keys.enc.json');
      const store = createSafeStorageKeyStore(path, 'linux');
      store.set('a', 'k1');
      store.set('b', 'k2');
      store.delete('a');
      store.delete('nope');
      const later = createSafeStorageKeyStore(path, 'linux');
      expect([later.get('a'), later.get('b')]).toEqual([null, 'k2']);
    });

    it('treats a blob it cannot decrypt as no key', () => {
      const path = join(dir, 'keys.enc.json');
      const store = createSafeStorageKeyStore(path, 'linux');
      store.set('a', 'k1');
      electron.safeStorage.decryptString.mockImplementationOnce(() => {
        throw new Error('bad');
      });
      expect(createSafeStorageKeyStore(path, 'linux').get('a')).toBeNull();
    });

    it("labels Linux's plain-text fallback so the UI can warn", () => {
      electron.safeStorage.getSelectedStorageBackend.mockReturnValue('basic_text');
      expect(createSafeStorageKeyStore(join(dir, 'k.json'), 'linux').backend).toBe('basic_text');
    });

    it('refuses to store a key when no encryption is available, writing nothing', () => {
      electron.safeStorage.isEncryptionAvailable.mockReturnValue(false);
      const path = join(dir, 'keys.enc.json');
      const store = createSafeStorageKeyStore(path, 'linux');
      expect(store.backend).toBe('unavailable');
      let thrown: unknown;
      try {
        store.set('a', 'k1');
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(WorkbenchFailure);
      expect((thrown as WorkbenchFailure).error.code).toBe('config');
      expect(existsSync(path)).toBe(false);
      expect(store.get('a')).toBeNull();
    });
  });
});

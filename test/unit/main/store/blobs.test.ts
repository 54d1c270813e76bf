import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addBlobRef, getBlobRow, releaseBlobRef, sweepOrphanBlobs } from '../../../../main/store/blob-rows';
import { BlobStore, isBlobHash } from '../../../../main/store/blobs';
import { closeDatabase, openDatabase, type Db } from '../../../../main/store/db';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('BlobStore', () => {
  let dir: string;
  let store: BlobStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blobs-'));
    store = new BlobStore(join(dir, 'blobs'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('put()', () => {
    it('names bytes by their SHA-256 under a two-digit fan-out folder', async () => {
      const bytes = Buffer.from('hello blobs');
      const info = await store.put(bytes);
      expect(info).toEqual({ hash: sha256(bytes), size: bytes.length });
      expect(store.pathOf(info.hash)).toBe(join(dir, 'blobs', info.hash.slice(0, 2), info.hash));
      expect(readFileSync(store.pathOf(info.hash))).toEqual(bytes);
      expect(await store.stat(info.hash)).toMatchObject({ size: bytes.length });
    });

    it('streams a Readable in pieces and gives the same hash as the whole bytes', async () => {
      const bytes = randomBytes(300_000);
      const pieces = Readable.from([bytes.subarray(0, 1), bytes.subarray(1, 70_000), bytes.subarray(70_000)]);
      expect(await store.put(pieces)).toEqual({ hash: sha256(bytes), size: bytes.length });
    });

    it('lets 8 concurrent writers of the same 5 MB all succeed and leaves one file and no temporaries', async () => {
      const bytes = randomBytes(5 * 2 ** 20);
      const results = await Promise.all(Array.from({ length: 8 }, () => store.put(Readable.from([bytes.subarray(0, 2 ** 20), bytes.subarray(2 ** 20)]))));
      expect(new Set(results.map((r) => r.hash))).toEqual(new Set([sha256(bytes)]));
      expect(await store.list()).toEqual([sha256(bytes)]);
      expect(readdirSync(join(dir, 'blobs')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
      expect(sha256(readFileSync(store.pathOf(sha256(bytes))))).toBe(sha256(bytes));
    });

    it('leaves nothing behind when the source stream fails', async () => {
      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000));
          this.destroy(new Error('disk went away'));
        },
      });
      await expect(store.put(failing)).rejects.toThrow(/disk went away/);
      expect(readdirSync(join(dir, 'blobs'))).toEqual([]);
    });
  });

  describe('putFile()', () => {
    it('stores a file from disk', async () => {
      const path = join(dir, 'clip.bin');
      writeFileSync(path, Buffer.from('0123456789'));
      expect(await store.putFile(path)).toEqual({ hash: sha256(Buffer.from('0123456789')), size: 10 });
    });
  });

  describe('pathOf()', () => {
    it.each(['', 'abc', 'A'.repeat(64), `${'a'.repeat(63)}/`, '../../etc/passwd', `${'a'.repeat(64)}x`])('refuses %j', (bad) => {
      expect(() => store.pathOf(bad)).toThrow(/not a blob hash/);
      expect(isBlobHash(bad)).toBe(false);
    });
  });

  describe('has() / remove()', () => {
    it('answers for stored, removed and malformed names', async () => {
      const { hash } = await store.put(Buffer.from('x'));
      expect(await store.has(hash)).toBe(true);
      expect(await store.remove(hash)).toBe(true);
      expect(await store.has(hash)).toBe(false);
      expect(await store.remove(hash)).toBe(false);
      expect(await store.has('../nope')).toBe(false);
    });
  });
});

describe('sweepOrphanBlobs()', () => {
  let dir: string;
  let store: BlobStore;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'blobs-'));
    store = new BlobStore(join(dir, 'blobs'));
    db = openDatabase(':memory:');
  });
  afterEach(() => {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  const age = (hash: string, msAgo: number) => {
    const when = new Date(Date.now() - msAgo);
    utimesSync(store.pathOf(hash), when, when);
  };

  it('after a crash between write and rename: only a temporary is left, no row names it, and start-up removes it', async () => {
    const kept = await store.put(Buffer.from('kept'));
    addBlobRef(db, { ...kept, mime: 'text/plain' });
    // What a process killed mid-put leaves: a temporary in the store's folder, never a row.
    writeFileSync(join(dir, 'blobs', '.tmp-3f2a'), Buffer.alloc(4096));
    expect(db.prepare('SELECT COUNT(*) FROM blobs').pluck().get()).toBe(1);

    expect(await sweepOrphanBlobs(db, store)).toEqual({ temps: 1, files: 0 });
    expect(readdirSync(join(dir, 'blobs')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    expect(await store.has(kept.hash)).toBe(true);
  });

  it('with temps: false (the background sweep, while this process may be writing) leaves temporaries alone', async () => {
    await store.put(Buffer.from('makes the folder'));
    writeFileSync(join(dir, 'blobs', '.tmp-in-flight'), Buffer.alloc(16));
    expect(await sweepOrphanBlobs(db, store, { temps: false })).toEqual({ temps: 0, files: 0 });
    expect(readdirSync(join(dir, 'blobs')).filter((n) => n.startsWith('.tmp-'))).toEqual(['.tmp-in-flight']);
  });

  it('removes old files nothing refers to, keeps referenced and recent ones', async () => {
    const referenced = await store.put(Buffer.from('a'));
    const released = await store.put(Buffer.from('b'));
    const neverRecorded = await store.put(Buffer.from('c'));
    const fresh = await store.put(Buffer.from('d'));
    addBlobRef(db, { ...referenced, mime: 'image/png' });
    addBlobRef(db, { ...released, mime: 'image/png' });
    releaseBlobRef(db, released.hash);
    for (const b of [referenced, released, neverRecorded]) age(b.hash, 2 * 3600_000);

    expect(await sweepOrphanBlobs(db, store)).toEqual({ temps: 0, files: 2 });
    expect((await store.list()).sort()).toEqual([referenced.hash, fresh.hash].sort());
    expect(getBlobRow(db, released.hash)).toBeNull();
    expect(getBlobRow(db, referenced.hash)).toMatchObject({ refs: 1, mime: 'image/png' });
  });
});

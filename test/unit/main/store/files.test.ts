import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  completeUpload,
  getFileById,
  getFileByKey,
  insertUpload,
  listLocalFiles,
  markInterruptedUploads,
  setFileStatus,
  setPublicUrl,
  upsertSeenFile,
} from '../../../../main/store/files';
import { migrateTo } from '../../../../main/store/migrations/index';
import type { FileObject } from '../../../../shared/wire/files';

const file = (id: string, filename: string, over: Partial<FileObject> = {}): FileObject => ({
  id,
  object: 'file',
  bytes: 100,
  created_at: 1_000,
  expires_at: 5_000,
  filename,
  ...over,
});

describe('store/files', () => {
  let db: Database.Database;
  let n = 0;
  const newKey = () => `lf_${++n}`;

  beforeEach(() => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrateTo(db);
  });

  describe('insertUpload() + completeUpload()', () => {
    it('records an upload before the service names it, then takes the service File', () => {
      insertUpload(db, { key: 'lf_a', connectionId: 'sandbox', filename: 'a.txt', bytes: 100, contentType: 'text/plain', runId: null, now: 10 });
      expect(getFileByKey(db, 'lf_a', 20)).toMatchObject({ id: null, status: 'uploading', filename: 'a.txt', contentType: 'text/plain' });
      completeUpload(db, 'lf_a', file('file_a', 'a.txt'), 30);
      expect(getFileByKey(db, 'lf_a', 40)).toEqual({
        key: 'lf_a',
        id: 'file_a',
        connectionId: 'sandbox',
        filename: 'a.txt',
        bytes: 100,
        contentType: 'text/plain',
        createdAt: 1_000_000,
        expiresAt: 5_000_000,
        publicUrl: null,
        publicUrlExpiresAt: null,
        status: 'complete',
        statusMessage: null,
        lastSeenAt: 30,
        runId: null,
      });
    });
  });

  describe('reads', () => {
    it('show a complete file past its expiry as expired, with the date, without asking the service', () => {
      upsertSeenFile(db, 'sandbox', file('file_x', 'x.bin'), 1, newKey);
      const expired = getFileById(db, 'sandbox', 'file_x', 5_000_000);
      expect(expired?.status).toBe('expired');
      expect(expired?.statusMessage).toMatch(/expired on 1970-01-01 01:23 UTC/);
      expect(getFileById(db, 'sandbox', 'file_x', 4_999_999)?.status).toBe('complete');
    });
  });

  describe('upsertSeenFile()', () => {
    it('adds an unknown file once and refreshes it on later sightings (same key)', () => {
      const k1 = upsertSeenFile(db, 'sandbox', file('file_1', 'one.txt'), 10, newKey);
      const k2 = upsertSeenFile(db, 'sandbox', file('file_1', 'renamed.txt', { bytes: 7 }), 20, newKey);
      expect(k2).toBe(k1);
      expect(getFileByKey(db, k1, 30)).toMatchObject({ filename: 'renamed.txt', bytes: 7, lastSeenAt: 20 });
      // The same id on another connection is another file.
      const other = upsertSeenFile(db, 'conn-b', file('file_1', 'theirs.txt'), 10, newKey);
      expect(other).not.toBe(k1);
    });

    it('brings a file marked deleted back to complete when the service lists it again', () => {
      const key = upsertSeenFile(db, 'sandbox', file('file_1', 'one.txt'), 10, newKey);
      setFileStatus(db, key, 'deleted', 'Deleted on the service.');
      upsertSeenFile(db, 'sandbox', file('file_1', 'one.txt'), 20, newKey);
      expect(getFileByKey(db, key, 30)).toMatchObject({ status: 'complete', statusMessage: null });
    });
  });

  describe('setPublicUrl()', () => {
    it('records and revokes a public URL', () => {
      upsertSeenFile(db, 'sandbox', file('file_1', 'one.txt'), 10, newKey);
      setPublicUrl(db, 'sandbox', 'file_1', 'http://x/t/file_1', 9_000);
      expect(getFileById(db, 'sandbox', 'file_1', 1)).toMatchObject({ publicUrl: 'http://x/t/file_1', publicUrlExpiresAt: 9_000 });
      setPublicUrl(db, 'sandbox', 'file_1', null, null);
      expect(getFileById(db, 'sandbox', 'file_1', 1)).toMatchObject({ publicUrl: null, publicUrlExpiresAt: null });
    });
  });

  describe('listLocalFiles()', () => {
    it('lists newest first and matches every word in the name or id, with LIKE wildcards taken literally', () => {
      upsertSeenFile(db, 'sandbox', file('file_old', 'report_2024.pdf', { created_at: 1 }), 10, newKey);
      upsertSeenFile(db, 'sandbox', file('file_new', 'report 100%.pdf', { created_at: 2 }), 10, newKey);
      upsertSeenFile(db, 'conn-b', file('file_b', 'photo.png', { created_at: 3 }), 10, newKey);
      const names = (q: Parameters<typeof listLocalFiles>[1]) => listLocalFiles(db, q, 0).map((f) => f.filename);
      expect(names({ limit: 10 })).toEqual(['photo.png', 'report 100%.pdf', 'report_2024.pdf']);
      expect(names({ limit: 10, query: 'REPORT pdf' })).toEqual(['report 100%.pdf', 'report_2024.pdf']);
      expect(names({ limit: 10, query: '100%' })).toEqual(['report 100%.pdf']);
      expect(names({ limit: 10, query: 't_2' })).toEqual(['report_2024.pdf']);
      expect(names({ limit: 10, query: 'file_b' })).toEqual(['photo.png']);
      expect(names({ limit: 10, connectionId: 'sandbox' })).toHaveLength(2);
      expect(names({ limit: 1 })).toEqual(['photo.png']);
    });
  });

  describe('markInterruptedUploads()', () => {
    it('fails uploads a crash left running, and only those', () => {
      insertUpload(db, { key: 'lf_a', connectionId: 'sandbox', filename: 'a', bytes: 1, contentType: '', runId: null, now: 1 });
      upsertSeenFile(db, 'sandbox', file('file_1', 'one.txt'), 10, newKey);
      expect(markInterruptedUploads(db)).toBe(1);
      expect(getFileByKey(db, 'lf_a', 2)).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/app stopped/) });
      expect(getFileById(db, 'sandbox', 'file_1', 2)?.status).toBe('complete');
    });
  });
});

/**
 * 0003: connection profiles (name and base URL only — API keys live in the key store, never
 * here) and a key/value settings table holding JSON values.
 */
import type { Migration } from './migration';

export const migration0003: Migration = {
  version: 3,
  name: 'connections-settings',
  up(db) {
    db.exec(`
      CREATE TABLE connections (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
};

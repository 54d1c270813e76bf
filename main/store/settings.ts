/**
 * App settings as a key/value table of JSON values (active connection, UI preferences, ...).
 * Callers own the meaning and shape of each key; a missing key reads as undefined.
 */
import type { Db } from './db';
import { prepare } from './query';

/** The value stored under `key`, or undefined when none is. */
export function getSetting<T>(db: Db, key: string): T | undefined {
  const row = prepare<[string], { value_json: string }>(db, 'SELECT value_json FROM settings WHERE key = ?').get(key);
  return row ? (JSON.parse(row.value_json) as T) : undefined;
}

/** Stores `value` (anything JSON can hold) under `key`; `undefined` removes the key. */
export function setSetting(db: Db, key: string, value: unknown): void {
  if (value === undefined) {
    deleteSetting(db, key);
    return;
  }
  prepare(
    db,
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
  ).run(key, JSON.stringify(value));
}

/** Removes `key`. Returns whether it was set. */
export function deleteSetting(db: Db, key: string): boolean {
  return prepare(db, 'DELETE FROM settings WHERE key = ?').run(key).changes > 0;
}

/**
 * The opaque keyset cursor History pages hand back: the (createdAt, id) of the last run on a
 * page, so the next page starts strictly after it however many runs were added meanwhile.
 */
import { WorkbenchFailure } from '../../shared/contract/errors';

export interface CursorKey {
  createdAt: number;
  id: string;
}

/** Encodes the position after `key` as a URL-safe string. */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify([key.createdAt, key.id]), 'utf8').toString('base64url');
}

/** Decodes a cursor from encodeCursor; anything else is an `invalid_input` failure. */
export function decodeCursor(cursor: string): CursorKey {
  const key = parseKey(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!key) {
    throw new WorkbenchFailure({
      code: 'invalid_input',
      message: 'The history page cursor is not valid; reload History from the first page.',
      issues: [{ path: 'cursor', message: 'not a cursor returned by history.search' }],
    });
  }
  return key;
}

function parseKey(text: string): CursorKey | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value as unknown[];
  if (!Number.isSafeInteger(createdAt) || typeof id !== 'string' || id === '') return null;
  return { createdAt: createdAt as number, id };
}

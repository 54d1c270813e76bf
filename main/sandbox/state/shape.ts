/**
 * Checks on a snapshot read back from disk: each store restores from `unknown` through these, so
 * a hand-edited or truncated-but-parseable snapshot throws (and is moved aside) instead of
 * putting a half-formed record into a store.
 */
import { isObject } from '../../../shared/is-object';

/** The value as a plain object, or throws naming `what`. */
export function obj(value: unknown, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new Error(`${what} is not an object`);
  return value;
}

/** The value as an array, or throws naming `what`. */
export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
}

export function str(o: Record<string, unknown>, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new Error(`${key} is not a string`);
  return v;
}

export function num(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${key} is not a number`);
  return v;
}

export function numOrNull(o: Record<string, unknown>, key: string): number | null {
  return o[key] === null ? null : num(o, key);
}

export function strOrNull(o: Record<string, unknown>, key: string): string | null {
  return o[key] === null ? null : str(o, key);
}

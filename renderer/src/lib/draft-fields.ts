/**
 * Reading a kept draft back into a form. A draft may come from an older build (a field added or
 * renamed since), so each value is taken only when it has the shape the form expects; the rest
 * of the form keeps its defaults. Objects are merged over their defaults, so a field added later
 * (a new parameter, say) is drafted with no change here.
 */
import { isObject } from '@shared/is-object';

/** `saved`'s fields over `defaults` (only when `saved` is an object). */
export function overDefaults<T extends object>(defaults: T, saved: unknown): T {
  return isObject(saved) ? ({ ...defaults, ...saved } as T) : defaults;
}

/** `saved[key]` when it is a string, else `fallback`. */
export function savedString(saved: Record<string, unknown>, key: string, fallback = ''): string {
  const value = saved[key];
  return typeof value === 'string' ? value : fallback;
}

/** `saved[key]` when it is a non-empty list of objects, else null. */
export function savedList(saved: Record<string, unknown>, key: string): Record<string, unknown>[] | null {
  const value = saved[key];
  return Array.isArray(value) && value.length > 0 && value.every(isObject) ? (value as Record<string, unknown>[]) : null;
}

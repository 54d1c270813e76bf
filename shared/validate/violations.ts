/**
 * The violation type the request validators return, and the small checks they share. A violation
 * is either about the shape of the body (a missing field, a wrong JSON type, an unknown enum
 * value: the service answers 422) or about a value of the right type that breaks a rule (out of
 * range, too many items, a combination that is not allowed: the service answers 400).
 */
import type { LimitViolation } from '../limits';
import { isObject } from '../is-object';

/** `shape` -> HTTP 422 (body cannot be read as the request); `value` -> HTTP 400. */
export type ViolationKind = 'shape' | 'value';

/** A LimitViolation that also says which kind of rule was broken. */
export interface RequestViolation extends LimitViolation {
  kind: ViolationKind;
}

/** The validators take all their checks from this module, isObject included. */
export { isObject };

export function shape(field: string, message: string): RequestViolation {
  return { field, message, kind: 'shape' };
}

export function value(field: string, message: string): RequestViolation {
  return { field, message, kind: 'value' };
}

/** Absent or null: the spec's "or null" fields. */
export function isUnset(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

/** Wrong-type checks for optional nullable fields; null when the value is unset or fine. */
export function expectType(
  field: string,
  v: unknown,
  type: 'string' | 'boolean' | 'number' | 'integer' | 'object' | 'array',
): RequestViolation | null {
  if (isUnset(v)) return null;
  const ok =
    type === 'integer'
      ? Number.isInteger(v)
      : type === 'number'
        ? typeof v === 'number' && Number.isFinite(v)
        : type === 'object'
          ? isObject(v)
          : type === 'array'
            ? Array.isArray(v)
            : typeof v === type;
  if (ok) return null;
  const article = type === 'integer' || type === 'object' || type === 'array' ? 'an' : 'a';
  return shape(field, `${field} must be ${article} ${type}`);
}

/** `field must be one of a, b, c` for string enums. */
export function expectEnum(field: string, v: unknown, allowed: readonly string[]): RequestViolation | null {
  if (isUnset(v)) return null;
  if (typeof v === 'string' && allowed.includes(v)) return null;
  return shape(field, `${field} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}`);
}

/** Adds a LimitViolation from shared/limits (range checks) as a value violation. */
export function fromLimit(v: LimitViolation | null): RequestViolation | null {
  return v ? { ...v, kind: 'value' } : null;
}

/** Collects non-null violations. */
export function collect(...items: Array<RequestViolation | null | RequestViolation[]>): RequestViolation[] {
  const out: RequestViolation[] = [];
  for (const item of items) {
    if (Array.isArray(item)) out.push(...item);
    else if (item) out.push(item);
  }
  return out;
}

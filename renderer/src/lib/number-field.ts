/**
 * What a number field's text means, without rewriting it: `1.5` in a whole-number field, `0,7`
 * or `abc` are explained, never turned into 15, 7 or nothing. The range of each parameter is the
 * form's rule (shared/validate, from shared/limits), checked on the parsed value, so an
 * out-of-range number parses and is then refused with the spec's own words.
 */

/** The field's text read as a number: null when empty (the parameter is unset). */
export type NumberEntry = { ok: true; value: number | null } | { ok: false; message: string };

export interface NumberFieldRules {
  /** The field takes whole numbers only (seed, max_tokens, n, ...). */
  integer?: boolean;
}

/** Plain decimal, optional sign and exponent: `-1`, `0.7`, `.5`, `1e9`, `2.5E-3`. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Parses what the user typed in a number field named `field`. */
export function parseNumberField(field: string, text: string, rules: NumberFieldRules = {}): NumberEntry {
  const raw = text.trim();
  if (raw === '') return { ok: true, value: null };
  if (/^[+-]?\d*,\d+$/.test(raw)) {
    return { ok: false, message: `${field}: "${raw}" uses a comma; write the decimal point as ".", e.g. ${raw.replace(',', '.')}` };
  }
  if (!NUMBER.test(raw)) return { ok: false, message: `${field}: "${raw}" is not a number` };
  const value = Number(raw);
  if (!Number.isFinite(value)) return { ok: false, message: `${field}: "${raw}" is too large` };
  if (rules.integer) {
    if (!Number.isInteger(value)) return { ok: false, message: `${field} takes a whole number; "${raw}" has a fraction` };
    if (!Number.isSafeInteger(value)) return { ok: false, message: `${field}: "${raw}" is too large to send exactly` };
  }
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

/** The text a field shows for a value set from outside (a loaded request): empty when unset. */
export function numberFieldText(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : String(value);
}

/**
 * ArrowUp / ArrowDown in a field: the value moved by one step, rounded to the step's decimals
 * so 0.1 + 0.2 shows as 0.3. Null when the text is not a number yet.
 */
export function stepNumber(entry: NumberEntry, step: number, direction: 1 | -1): number | null {
  if (!entry.ok) return null;
  const decimals = (String(step).split('.')[1] ?? '').length;
  const next = (entry.value ?? 0) + direction * step;
  return Number(next.toFixed(decimals));
}

/**
 * JSON values written as source literals: TypeScript takes JSON as it is; Python needs True,
 * False and None. Strings use JSON escaping, which both languages read the same way.
 */

/** A pretty TypeScript literal, continuation lines indented by `indent`. */
export function tsLiteral(value: unknown, indent = ''): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** A string literal valid in TypeScript and Python. */
export function stringLiteral(value: string): string {
  return JSON.stringify(value);
}

/** A pretty Python literal (dict/list/str/int/float/bool/None), continuation lines indented by `indent`. */
export function pyLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${pyLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${stringLiteral(k)}: ${pyLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

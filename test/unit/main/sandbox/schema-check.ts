/**
 * Test helper: a small JSON Schema checker (the subset the sandbox generates for), so tests can
 * assert that generated JSON is valid against its schema. Returns the paths that fail.
 */
type Schema = Record<string, unknown>;

function resolve(s: Schema, root: Schema): Schema {
  if (typeof s.$ref !== 'string') return s;
  let t: unknown = root;
  for (const part of s.$ref.slice(1).split('/').filter(Boolean)) t = (t as Schema)[part];
  return resolve(t as Schema, root);
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      return typeof v === type;
  }
}

export function schemaErrors(schema: Schema, value: unknown, root: Schema = schema, path = '$'): string[] {
  const s = resolve(schema, root);
  const errs: string[] = [];
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) errs.push(...schemaErrors(sub as Schema, value, root, path));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches && !branches.some((b) => schemaErrors(b, value, root, path).length === 0)) errs.push(`${path}: no anyOf/oneOf branch matches`);
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) errs.push(`${path}: not const`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) errs.push(`${path}: not in enum`);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeOk(t, value))) return [...errs, `${path}: expected ${types.join('|')}, got ${JSON.stringify(value)}`];
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) errs.push(`${path}: below minimum`);
    if (typeof s.maximum === 'number' && value > s.maximum) errs.push(`${path}: above maximum`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) errs.push(`${path}: not above exclusiveMinimum`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) errs.push(`${path}: not below exclusiveMaximum`);
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) errs.push(`${path}: shorter than minLength`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) errs.push(`${path}: longer than maxLength`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) errs.push(`${path}: fewer than minItems`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) errs.push(`${path}: more than maxItems`);
    if (s.items) value.forEach((v, i) => errs.push(...schemaErrors(s.items as Schema, v, root, `${path}[${i}]`)));
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const key of (s.required as string[] | undefined) ?? []) if (!(key in obj)) errs.push(`${path}.${key}: required`);
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) errs.push(...schemaErrors(props[key], v, root, `${path}.${key}`));
      else if (s.additionalProperties === false) errs.push(`${path}.${key}: additional property`);
    }
  }
  return errs;
}

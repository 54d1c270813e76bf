/**
 * Bounds on the shape of a value that arrives from outside (the page, a request body): how deep
 * it nests and which keys it may use. Checked before any recursive code (zod, JSON.stringify,
 * the schema validator) touches the value, so 10⁵ levels of nesting are refused as invalid input
 * instead of overflowing the stack, and a `__proto__` key is refused by name instead of being
 * dropped by the first object spread or assignment that meets it. The walk is iterative.
 */

/** Deeper than any real request or tool schema (the service allows 10 levels in strict schemas). */
export const MAX_INPUT_DEPTH = 100;

/** What is wrong with a value's shape: where (`messages[0].content`) and why. */
export interface ShapeProblem {
  path: string;
  message: string;
}

interface Pending {
  value: unknown;
  depth: number;
  /** Index of the parent in `seen`, and this value's key in it; the path is rebuilt only on error. */
  parent: number;
  key: string | number;
}

/**
 * The first problem with `value`'s shape, or null: nesting deeper than `maxDepth` objects or
 * arrays, or an own key named `__proto__` (which JavaScript objects cannot hold as data).
 */
export function jsonShapeProblem(value: unknown, maxDepth: number = MAX_INPUT_DEPTH): ShapeProblem | null {
  const seen: Array<{ parent: number; key: string | number }> = [];
  const stack: Pending[] = [{ value, depth: 0, parent: -1, key: '' }];
  while (stack.length > 0) {
    const next = stack.pop() as Pending;
    if (typeof next.value !== 'object' || next.value === null) continue;
    // Bytes (a binary frame's Uint8Array) are one value, not a million keys to walk.
    if (ArrayBuffer.isView(next.value) || next.value instanceof ArrayBuffer) continue;
    const index = seen.push({ parent: next.parent, key: next.key }) - 1;
    const depth = next.depth + 1;
    if (depth > maxDepth) {
      return { path: pathOf(seen, index), message: `nests deeper than ${maxDepth} levels; flatten it` };
    }
    if (Array.isArray(next.value)) {
      for (let i = next.value.length - 1; i >= 0; i--) stack.push({ value: next.value[i], depth, parent: index, key: i });
      continue;
    }
    for (const key of Object.keys(next.value)) {
      if (key === '__proto__') {
        return { path: pathOf(seen, index), message: 'uses the key "__proto__", which is not allowed; rename it' };
      }
      stack.push({ value: (next.value as Record<string, unknown>)[key], depth, parent: index, key });
    }
  }
  return null;
}

function pathOf(seen: ReadonlyArray<{ parent: number; key: string | number }>, index: number): string {
  const keys: Array<string | number> = [];
  for (let i = index; i > 0; i = seen[i].parent) keys.unshift(seen[i].key);
  let out = '';
  for (const key of keys) out += typeof key === 'number' ? `[${key}]` : out === '' ? key : `.${key}`;
  return out;
}

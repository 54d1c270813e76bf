/** JSON Pointer (RFC 6901) building and reading, for naming the node a violation is about. */

/** Escapes one reference token (`~` -> `~0`, `/` -> `~1`). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/items/2/name` from a parent pointer and a key or index. */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${escapePointerToken(token)}`;
}

/** The tokens of a pointer (`""` is the root: no tokens). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a pointer names inside `root`, or undefined when it names nothing. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (node !== null && typeof node === 'object') {
      node = Object.prototype.hasOwnProperty.call(node, token) ? (node as Record<string, unknown>)[token] : undefined;
    } else return undefined;
  }
  return node;
}

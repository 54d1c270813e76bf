/**
 * Operation ids: made by the caller (the page's wrapper for a cancellable call, the bridge for
 * streams and sessions), so `ops.cancel` can name an operation before main has answered anything.
 */

/** 128 random bits, URL-safe (fits OpIdSchema): an operation id no other caller can guess or collide with. */
export function newOpId(): string {
  const bytes = new Uint8Array(16);
  // Web Crypto exists in every runtime we ship to (renderer, preload, Node 20); shared/ has no DOM types.
  (globalThis as unknown as { crypto: { getRandomValues(array: Uint8Array): Uint8Array } }).crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

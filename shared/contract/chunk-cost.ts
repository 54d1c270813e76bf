/**
 * What a stream chunk costs in Electron's credit window (IPC_STREAM_WINDOW): its byte fields and
 * strings (structured clone copies them), plus a flat overhead per object. Main counts it when
 * sending and the preload when acknowledging, with this one function, so the two always agree.
 */
export function chunkCost(chunk: unknown, depth = 0): number {
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  if (typeof chunk === 'string') return chunk.length;
  if (depth > 8 || typeof chunk !== 'object' || chunk === null) return 8;
  let total = 64;
  for (const child of Array.isArray(chunk) ? chunk : Object.values(chunk)) total += chunkCost(child, depth + 1);
  return total;
}

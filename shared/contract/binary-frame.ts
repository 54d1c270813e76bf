/**
 * The browser-mode WebSocket's binary frame, for messages that carry bytes (either direction).
 *
 *   [u32 big-endian: header length N][N bytes: UTF-8 JSON header][the raw bytes, back to back]
 *
 * The header is `{ m, b }`: `m` is the message with every Uint8Array replaced by `null`, `b` the
 * list of `[path, byteLength]` of those byte fields, in the order their bytes follow. Paths instead
 * of in-band markers mean no JSON value can be mistaken for bytes. Messages without bytes keep
 * going as text frames.
 *
 * A dropped file's bytes do not come this way in browser mode: the page posts its slices unread
 * over the upload lane (renderer/src/bridge/upload-lane.ts), which test/bench/ws-ceiling.ts
 * measured several times faster than any WebSocket send from Chromium.
 */

/** The Web/Node text codecs (shared/ has no DOM or Node types, both runtimes have these). */
const codecs = globalThis as unknown as {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label?: string, options?: { fatal?: boolean }) => { decode(bytes: Uint8Array): string };
};

type PathKey = string | number;

/** Keys a decoded path may never name (they would reach an object's prototype). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 64;
const HEADER_PREFIX = 4;

/** True when `value` holds a Uint8Array anywhere (plain objects and arrays only). */
export function hasBytes(value: unknown, depth = 0): boolean {
  if (value instanceof Uint8Array) return true;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => hasBytes(child, depth + 1));
}

function strip(value: unknown, path: PathKey[], found: Array<[PathKey[], Uint8Array]>): unknown {
  if (value instanceof Uint8Array) {
    found.push([[...path], value]);
    return null;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (path.length > MAX_DEPTH) throw new Error('The message is nested too deeply to send.');
  if (Array.isArray(value)) return value.map((child, i) => strip(child, [...path, i], found));
  // toJSON-bearing objects (Date) keep their JSON form, as JSON.stringify would give them.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // Assigning it would set the copy's prototype and lose the key without a word: refuse it.
    if (key === '__proto__') throw new Error('The message uses the key "__proto__", which is not allowed; rename it.');
    out[key] = strip(child, [...path, key], found);
  }
  return out;
}

/** Encodes `message` (which carries bytes) as one binary frame. */
export function encodeBinaryFrame(message: unknown): Uint8Array {
  const found: Array<[PathKey[], Uint8Array]> = [];
  const m = strip(message, [], found);
  const header = new codecs.TextEncoder().encode(JSON.stringify({ m, b: found.map(([path, field]) => [path, field.byteLength]) }));
  let total = HEADER_PREFIX + header.byteLength;
  for (const [, field] of found) total += field.byteLength;
  const frame = new Uint8Array(total);
  new DataView(frame.buffer).setUint32(0, header.byteLength);
  frame.set(header, HEADER_PREFIX);
  let offset = HEADER_PREFIX + header.byteLength;
  for (const [, field] of found) {
    frame.set(field, offset);
    offset += field.byteLength;
  }
  return frame;
}

function isPath(value: unknown): value is PathKey[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.length <= MAX_DEPTH + 1 &&
    value.every((k) => (typeof k === 'string' && !FORBIDDEN_KEYS.has(k)) || (Number.isInteger(k) && (k as number) >= 0))
  );
}

/** Puts `bytes` where `path` points; the slot must exist and hold the `null` placeholder. */
function place(root: unknown, path: PathKey[], bytes: Uint8Array): void {
  let container: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (typeof container !== 'object' || container === null || !Object.hasOwn(container, key)) throw new Error('bad byte path');
    container = (container as Record<PathKey, unknown>)[key];
  }
  const last = path[path.length - 1];
  if (typeof container !== 'object' || container === null || !Object.hasOwn(container, last)) throw new Error('bad byte path');
  if ((container as Record<PathKey, unknown>)[last] !== null) throw new Error('bad byte path');
  (container as Record<PathKey, unknown>)[last] = bytes;
}

/**
 * Decodes a binary frame; throws (with a message fit for a protocol error) when it is malformed.
 * The Uint8Arrays are views into `frame`, not copies.
 */
export function decodeBinaryFrame(frame: Uint8Array): unknown {
  if (frame.byteLength < HEADER_PREFIX) throw new Error('The binary frame is too short.');
  const headerLength = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  if (headerLength > frame.byteLength - HEADER_PREFIX) throw new Error('The binary frame header is longer than the frame.');
  let header: unknown;
  try {
    const text = new codecs.TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(HEADER_PREFIX, HEADER_PREFIX + headerLength));
    header = JSON.parse(text);
  } catch {
    throw new Error('The binary frame header is not UTF-8 JSON.');
  }
  const { m, b } = (typeof header === 'object' && header !== null ? header : {}) as { m?: unknown; b?: unknown };
  if (!Array.isArray(b)) throw new Error('The binary frame header has no byte list.');
  let offset = HEADER_PREFIX + headerLength;
  try {
    for (const entry of b as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2 || !isPath(entry[0])) throw new Error('bad byte entry');
      const length = entry[1] as unknown;
      if (!Number.isInteger(length) || (length as number) < 0 || offset + (length as number) > frame.byteLength) {
        throw new Error('bad byte length');
      }
      place(m, entry[0], frame.subarray(offset, offset + (length as number)));
      offset += length as number;
    }
  } catch {
    throw new Error('The binary frame does not match its header.');
  }
  if (offset !== frame.byteLength) throw new Error('The binary frame has bytes its header does not name.');
  return m;
}

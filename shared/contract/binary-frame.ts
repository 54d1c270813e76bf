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
 * In the page a byte field may also be a Blob (a slice of a File the user dropped): such a message
 * is encoded as a Blob of the same layout (`encodeBlobFrame`), which the browser's WebSocket sends
 * from its blob store without the page reading the bytes. Measured in Chromium here
 * (test/bench/ws-ceiling.ts): reading 1 MiB slices into the page and sending them ran at 13-29
 * MiB/s, sending the slices as Blobs at 38-72 MiB/s on the same load. Main receives a plain binary
 * frame either way, with Uint8Arrays where the Blobs were.
 */

/** The Web/Node text codecs (shared/ has no DOM or Node types, both runtimes have these). */
const codecs = globalThis as unknown as {
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label?: string, options?: { fatal?: boolean }) => { decode(bytes: Uint8Array): string };
};

type PathKey = string | number;

/** The part of a Blob used here (shared/ has no DOM types; both runtimes have a global Blob). */
export interface BlobLike {
  readonly size: number;
  slice(start?: number, end?: number): BlobLike;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const blobs = globalThis as unknown as { Blob?: new (parts: Array<Uint8Array | BlobLike>) => BlobLike };

/** True for a Blob of this runtime (a File too). */
export function isBlob(value: unknown): value is BlobLike {
  return blobs.Blob !== undefined && value instanceof blobs.Blob;
}

type ByteField = Uint8Array | BlobLike;
const byteLength = (field: ByteField): number => (field instanceof Uint8Array ? field.byteLength : field.size);

/** Keys a decoded path may never name (they would reach an object's prototype). */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 64;
const HEADER_PREFIX = 4;

/** True when `value` holds a Uint8Array (or a Blob) anywhere (plain objects and arrays only). */
export function hasBytes(value: unknown, depth = 0): boolean {
  if (value instanceof Uint8Array || isBlob(value)) return true;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => hasBytes(child, depth + 1));
}

/** True when `value` holds a Blob anywhere: it is sent with encodeBlobFrame. */
export function hasBlob(value: unknown, depth = 0): boolean {
  if (isBlob(value)) return true;
  if (value instanceof Uint8Array || depth > MAX_DEPTH || typeof value !== 'object' || value === null) return false;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => hasBlob(child, depth + 1));
}

function strip(value: unknown, path: PathKey[], found: Array<[PathKey[], ByteField]>): unknown {
  if (value instanceof Uint8Array || isBlob(value)) {
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

/** The frame's start (length prefix and header) and its byte fields, in order. */
function frameParts(message: unknown): { head: Uint8Array; fields: ByteField[] } {
  const found: Array<[PathKey[], ByteField]> = [];
  const m = strip(message, [], found);
  const header = new codecs.TextEncoder().encode(JSON.stringify({ m, b: found.map(([path, field]) => [path, byteLength(field)]) }));
  const head = new Uint8Array(HEADER_PREFIX + header.byteLength);
  new DataView(head.buffer).setUint32(0, header.byteLength);
  head.set(header, HEADER_PREFIX);
  return { head, fields: found.map(([, field]) => field) };
}

/** Encodes `message` (which carries bytes, no Blob) as one binary frame. */
export function encodeBinaryFrame(message: unknown): Uint8Array {
  const { head, fields } = frameParts(message);
  let total = head.byteLength;
  for (const field of fields) {
    if (!(field instanceof Uint8Array)) throw new Error('A Blob field needs encodeBlobFrame.');
    total += field.byteLength;
  }
  const frame = new Uint8Array(total);
  frame.set(head);
  let offset = head.byteLength;
  for (const field of fields as Uint8Array[]) {
    frame.set(field, offset);
    offset += field.byteLength;
  }
  return frame;
}

/**
 * Encodes `message` (which carries Blobs, and maybe bytes) as a Blob laid out as a binary frame:
 * the Blobs' contents are not read here. Throws where the runtime has no Blob.
 */
export function encodeBlobFrame(message: unknown): BlobLike {
  if (!blobs.Blob) throw new Error('This runtime has no Blob.');
  const { head, fields } = frameParts(message);
  return new blobs.Blob([head, ...fields]);
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

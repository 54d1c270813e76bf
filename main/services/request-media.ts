/**
 * Base64 media inside recorded requests moves to the blob store: image blocks that the wire
 * formats carry inline (chat and Responses `data:image/...;base64,...` URLs, Messages
 * `source: {type: 'base64', media_type, data}`) would otherwise sit in every run row, megabytes
 * at a time. The recorded request keeps a reference in their place:
 *
 *   {"$blob": "<sha256>", "mime": "image/png", "encoding": "data-url" | "base64"}
 *
 * (`data-url` stood for the whole string, `base64` for a Messages `data` field). Rehydrating puts
 * the bytes back for what needs the real request: a re-run from History (`history.request`), the
 * JSONL export, and a compaction rebuilt from recorded Responses inputs. History's entry view
 * gets the references and a URL for each blob instead (HistoryService.get).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isBlobReference, type BlobReference } from '../../shared/contract/media';
import type { CapturedRequest } from '../../shared/contract/runs';
import type { BlobInfo, BlobStore } from '../store/blobs';

/** Payloads smaller than this (decoded bytes) stay inline: a reference would not save much. */
export const MIN_BLOB_BYTES = 1024;

/** What a recorded request holds in place of inline base64 (the page reads the same shape). */
export type { BlobReference };

/** A blob the recorded request refers to, once it is on disk. */
export type RecordedBlob = BlobInfo & { mime: string };

const DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/=\r\n]+)$/i;

interface Found {
  bytes: Buffer;
  mime: string;
  hash: string;
}

/**
 * The request with its inline base64 media replaced by references, and the blobs written to the
 * store first (so a row never refers to a missing blob). A request without such media comes back
 * as it was, with no blobs.
 */
export async function storeRequestMedia(store: BlobStore, request: CapturedRequest): Promise<{ request: CapturedRequest; blobs: RecordedBlob[] }> {
  const found = new Map<string, Found>();
  const body = replaceMedia(request.body, found);
  if (found.size === 0) return { request, blobs: [] };
  const blobs: RecordedBlob[] = [];
  for (const f of found.values()) {
    const info = await store.put(f.bytes);
    blobs.push({ ...info, mime: f.mime });
  }
  return { request: { ...request, body }, blobs };
}

/** The request with every reference replaced by its bytes again (a missing blob stays a reference). */
export async function rehydrateRequest(store: BlobStore, request: CapturedRequest): Promise<CapturedRequest> {
  if (!JSON.stringify(request.body ?? null).includes('"$blob"')) return request;
  return { ...request, body: await rehydrate(store, request.body) };
}

/** Same for any value (a body being rebuilt from recorded inputs). */
export async function rehydrate<T>(store: BlobStore, value: T): Promise<T> {
  if (isBlobReference(value)) {
    try {
      const b64 = (await readFile(store.pathOf(value.$blob))).toString('base64');
      return (value.encoding === 'data-url' ? `data:${value.mime};base64,${b64}` : b64) as T;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return (await Promise.all(value.map((v) => rehydrate(store, v)))) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await rehydrate(store, v);
    return out as T;
  }
  return value;
}

function replaceMedia(value: unknown, found: Map<string, Found>): unknown {
  if (typeof value === 'string') {
    const m = value.length > MIN_BLOB_BYTES ? DATA_URL.exec(value) : null;
    return m ? (reference(m[2], m[1].toLowerCase(), 'data-url', found) ?? value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => replaceMedia(v, found));
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const messagesBase64 = obj.type === 'base64' && typeof obj.data === 'string' && typeof obj.media_type === 'string';
  for (const [k, v] of Object.entries(obj)) {
    out[k] = messagesBase64 && k === 'data' ? (reference(v as string, obj.media_type as string, 'base64', found) ?? v) : replaceMedia(v, found);
  }
  return out;
}

function reference(b64: string, mime: string, encoding: BlobReference['encoding'], found: Map<string, Found>): BlobReference | null {
  const bytes = Buffer.from(b64, 'base64');
  // Only what decodes back to the same text is moved: rehydrating must give the request as sent.
  if (bytes.length < MIN_BLOB_BYTES || bytes.toString('base64') !== b64) return null;
  const hash = createHash('sha256').update(bytes).digest('hex');
  found.set(hash, { bytes, mime, hash });
  return { $blob: hash, mime, encoding };
}

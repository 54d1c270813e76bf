/**
 * What happens to a finished video besides its URL (spec Errors 7): `output.upload_url` gets the
 * MP4 by HTTP PUT, and `storage_options` keeps it as a file of the team in the Files store, with
 * a public URL when asked. A failed upload or store is `storage_error` (the job is still done,
 * with its URL); a file stored whose public URL could not be made is `public_url_error`.
 *
 * Trigger for tests: a `storage_options.filename` containing `public-url-fail` stores the file
 * but fails its public URL.
 */
import { writeFile } from 'node:fs/promises';
import type { Clock } from '../clock';
import { unlinkQuietly, type FileStore } from '../files/store';
import type { StorageRequest } from './request';
import type { Delivery } from './store';

/** How long the PUT to `output.upload_url` may take. */
export const UPLOAD_TIMEOUT_MS = 30_000;

/** A filename containing this stores the file but fails its public URL (documented trigger). */
export const PUBLIC_URL_FAIL_TRIGGER = 'public-url-fail';

export interface DeliveryTarget {
  team: string;
  uploadUrl: string | null;
  storage: StorageRequest | null;
}

export interface DeliveryDeps {
  files: FileStore;
  clock: Clock;
  log: (line: string) => void;
  fetch?: typeof fetch;
  uploadTimeoutMs?: number;
}

/** PUTs the bytes; null when the upload worked, else what went wrong. */
async function upload(url: string, bytes: Uint8Array, deps: DeliveryDeps): Promise<string | null> {
  const timeoutMs = deps.uploadTimeoutMs ?? UPLOAD_TIMEOUT_MS;
  const host = new URL(url).host;
  try {
    const res = await (deps.fetch ?? fetch)(url, {
      method: 'PUT',
      // No content-length by hand: fetch sets it from the bytes, and Node 20's fetch refuses one given
      // (UND_ERR_INVALID_ARG) once the npm undici is loaded, as it is in main.
      headers: { 'content-type': 'video/mp4' },
      body: bytes,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.ok) return null;
    return `Uploading the video to output.upload_url failed: ${host} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}.`;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return `Uploading the video to output.upload_url failed: could not reach ${host} (${why}).`;
  }
}

/** Stores the bytes as a file of the team; a public URL too when asked. */
async function store(target: DeliveryTarget & { storage: StorageRequest }, bytes: Uint8Array, deps: DeliveryDeps): Promise<Delivery['file']> {
  const { files, clock } = deps;
  const { storage } = target;
  const id = files.newId();
  try {
    await writeFile(files.pathOf(id), bytes, { mode: 0o600 });
  } catch (err) {
    unlinkQuietly(files.pathOf(id));
    throw err;
  }
  const now = clock.seconds();
  const record = files.add({
    id,
    team: target.team,
    filename: storage.filename,
    bytes: bytes.length,
    createdMs: clock.now(),
    expiresAt: storage.expiresAfter === null ? null : now + storage.expiresAfter,
    contentType: 'video/mp4',
    purpose: 'video_output',
    userDefinedId: null,
  });
  const file: NonNullable<Delivery['file']> = {
    fileId: id,
    filename: storage.filename,
    expiresAt: record.expiresAt,
    publicPath: null,
    publicUrlError: null,
    publicUrlExpiresAt: null,
  };
  if (storage.publicUrl) {
    if (storage.filename.includes(PUBLIC_URL_FAIL_TRIGGER)) {
      file.publicUrlError = `The file was stored but its public URL could not be created (sandbox trigger: the filename contains "${PUBLIC_URL_FAIL_TRIGGER}").`;
    } else {
      const expiresAt = storage.publicUrl.expiresAfter === null ? null : now + storage.publicUrl.expiresAfter;
      const token = files.publish(record, expiresAt);
      file.publicPath = `/public/${token}/${encodeURIComponent(storage.filename)}`;
      file.publicUrlExpiresAt = expiresAt;
    }
  }
  return file;
}

/** Uploads and stores as the job asked; never throws (failures become `storageError`). */
export async function deliver(target: DeliveryTarget, bytes: Uint8Array, deps: DeliveryDeps): Promise<Delivery> {
  const errors: string[] = [];
  let file: Delivery['file'] = null;
  const uploading = target.uploadUrl === null ? Promise.resolve(null) : upload(target.uploadUrl, bytes, deps);
  if (target.storage) {
    try {
      file = await store({ ...target, storage: target.storage }, bytes, deps);
    } catch (err) {
      deps.log(`sandbox video: storing the result failed: ${(err as Error).message}`);
      errors.push(`Storing the video as a file failed: ${(err as Error).message}.`);
    }
  }
  const uploadError = await uploading;
  if (uploadError) errors.unshift(uploadError);
  return { storageError: errors.length > 0 ? errors.join(' ') : null, file };
}

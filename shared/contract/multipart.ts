/**
 * The recorded body of an upload (a multipart description). Its own module: code export reads it,
 * and it must not pull the Files contract (and History's schemas) in with it.
 */

import type { BlobReference } from './media';

/**
 * One part of a recorded multipart body: a field, or a file described (never its bytes). A file
 * the app keeps (a voice's reference clip) carries its blob reference: History plays it from
 * `RunRecord.media`, and deleting the run lets the blob go.
 */
export type MultipartPart = { name: string; value: string } | { name: string; filename: string; contentType: string; bytes: number; blob?: BlobReference };

/**
 * How an upload's request body is recorded in its run: the parts in the order they were sent
 * (`expires_after` before `file`, as the service requires). History shows it; code export turns
 * it into `curl -F`, `client.files.create(...)`.
 */
export interface MultipartDescription {
  multipart: MultipartPart[];
}

/** The recorded body of a run, read as a multipart description when it is one. */
export function multipartOf(body: unknown): MultipartDescription | null {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { multipart?: unknown }).multipart)) return null;
  return body as MultipartDescription;
}

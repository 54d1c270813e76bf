/**
 * The `filter` of `GET /v1/files`: AIP-160 text parsed and compiled once per request by
 * shared/aip160, applied to the sandbox's file records. A filter that does not parse is a 400 that
 * says what is wrong and at which column.
 */
import { compileFilter, formatFilterError, parseFilter, type FilterableFile } from '../../../shared/aip160';
import { SandboxError } from '../errors';
import type { FileRecord } from './store';

/** What a filter sees of a record; times are the whole seconds the File object shows. */
export function filterable(r: FileRecord): FilterableFile {
  return {
    name: r.filename,
    fileId: r.id,
    sizeBytes: r.bytes,
    contentType: r.contentType,
    createdAt: Math.floor(r.createdMs / 1000),
    expiresAt: r.expiresAt,
    // Uploads are stored whole before they are listed, so every listed file is complete.
    uploadStatus: 'Complete',
    userDefinedId: r.userDefinedId,
  };
}

/** A predicate over records for `text`; throws SandboxError 400 when the filter does not parse. */
export function compileFileFilter(text: string): (r: FileRecord) => boolean {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new SandboxError(400, `Invalid filter at ${formatFilterError(parsed.error)}.`);
  const predicate = compileFilter(parsed.expr);
  return (r) => predicate(filterable(r));
}

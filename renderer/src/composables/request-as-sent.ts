/**
 * A recorded run with its request as it was sent. History hands runs out with the media their
 * request sent as blob references (each with a URL in `record.media`, for showing it), never the
 * bytes; what sends the request again — Run again, Open in playground, its code, a tool answer
 * that repeats the earlier input — asks main for the bytes here, once, when it needs them.
 */
import { blobReferencesIn } from '@shared/contract/media';
import type { RunRecord } from '@shared/contract/runs';
import { useWorkbench } from '../api';

/** Whether `record`'s request holds blob references in place of media bytes. */
export function holdsMediaReferences(record: RunRecord): boolean {
  return blobReferencesIn(record.request.body).length > 0;
}

/** `record` with its request as sent (the same record when it holds no references). Rejects with WorkbenchFailure. */
export async function withRequestAsSent(record: RunRecord): Promise<RunRecord> {
  if (!holdsMediaReferences(record)) return record;
  return { ...record, request: await useWorkbench().history.request({ id: record.id }) };
}

/**
 * Saving a file's content where the user wants it. Electron asks with the save dialog first and
 * streams straight there (main/api writes a temporary file and renames it, so a full disk or a
 * cancel leaves nothing half-written). Browser mode streams into a private temporary file and
 * hands the page a one-time link, so the browser's own download does the saving.
 */
import { toWorkbenchError } from '../../api/errors';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { FileDownloadChunk, FileDownloadResult, FileRecord } from '../../../shared/families/files/contract';
import type { ResolvedConnection } from '../../services/connections-service';
import type { FilesServiceDeps } from './files-deps';
import { TransferRate } from './transfer-rate';
import { chooseDestination } from '../../services/download-tickets';

export interface DownloadContext {
  signal: AbortSignal;
  emit(chunk: FileDownloadChunk): void;
}

const PROGRESS_EVERY_MS = 100;

/**
 * Downloads `file` (known locally, so its name is known). `onGone` is told about a 404 (with the
 * service's words), so the record can be marked deleted or expired; the failure is thrown either way.
 */
export async function downloadFile(
  deps: FilesServiceDeps,
  connection: ResolvedConnection,
  file: FileRecord & { id: string },
  ctx: DownloadContext,
  onGone: (serviceMessage: string) => FileRecord,
): Promise<FileDownloadResult> {
  const now = deps.now ?? Date.now;
  const destination = await chooseDestination(deps, file.filename);
  if (!destination) return { filename: file.filename, bytes: 0, cancelled: true };
  const { dest, token } = destination;

  const rate = new TransferRate(now);
  let lastEmit = 0;
  const onProgress = (received: number, total: number | null): void => {
    rate.add(received);
    const t = now();
    if (received !== total && t - lastEmit < PROGRESS_EVERY_MS) return;
    lastEmit = t;
    ctx.emit({ type: 'progress', received, total, bytesPerSecond: rate.bytesPerSecond() });
  };
  const result = await deps.api.downloadFileContent(connection.client, file.id, dest, { signal: ctx.signal, onProgress });
  if (!result.ok) {
    if (token) deps.tickets.discard(dest);
    if (result.error.kind === 'cancelled') return { filename: file.filename, bytes: 0, cancelled: true };
    if (result.error.status === 404) {
      const gone = onGone(result.error.message);
      throw new WorkbenchFailure({ code: 'not_found', message: gone.statusMessage ?? `The service no longer has ${file.id}.`, status: 404 });
    }
    throw new WorkbenchFailure(toWorkbenchError(result.error));
  }
  const bytes = result.value.bytes;
  if (!token) return { filename: file.filename, bytes, savedTo: dest };
  return { filename: file.filename, bytes, url: deps.tickets.publish(token, { path: dest, filename: file.filename, bytes }) };
}

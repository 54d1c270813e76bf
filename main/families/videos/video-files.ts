/**
 * A finished video's `file_output` (the service stored the result in Files) becomes a FileRecord,
 * so the Files view lists it and the job card links to it: refreshed from the service
 * (`GET /v1/files/{id}`) when it answers, else recorded from what the video result said.
 */
import type { FileRecord } from '../../../shared/families/files/contract';
import type { VideoFileOutput } from '../../../shared/wire/videos';
import type { Db } from '../../store/db';
import { getFileByKey, upsertSeenFile } from '../../store/files';
import { newFileKey } from '../files/files-upload';

export interface VideoFileDeps {
  db: Db;
  /** FilesService.get: refreshes (or adds) the record from the service and emits files.changed. */
  get(ref: { connectionId?: string; id: string }): Promise<FileRecord>;
  emitChanged(record: FileRecord): void;
  now?: () => number;
}

export function videoFileLinker(deps: VideoFileDeps): (connectionId: string, output: VideoFileOutput) => Promise<void> {
  const now = deps.now ?? Date.now;
  return async (connectionId, output) => {
    try {
      // Whatever the service says now (even that it is gone) is the truth; get() recorded it.
      await deps.get({ connectionId, id: output.file_id });
      return;
    } catch {
      // The service could not be asked: the result's own description is recorded instead.
    }
    const key = upsertSeenFile(
      deps.db,
      connectionId,
      {
        id: output.file_id,
        object: 'file',
        bytes: 0,
        created_at: Math.floor(now() / 1000),
        expires_at: output.expires_at ?? null,
        filename: output.filename,
        public_url: output.public_url ?? null,
        public_url_expires_at: output.public_url_expires_at ?? null,
      },
      now(),
      newFileKey,
    );
    const record = getFileByKey(deps.db, key, now());
    if (record) deps.emitChanged(record);
  };
}

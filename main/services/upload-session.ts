/**
 * `userFiles.upload`: bytes only the page has (a File made in the page, with no disk path),
 * staged through a contract session like any other bytes: each message is one chunk (≤ 1 MiB),
 * the page's `send` resolves once its chunk is in the queue (the host's inbound window), and a
 * chunk is taken only when the staging stream has room, so a sender can never outrun the disk.
 * Closing the page's side finishes the file; cancelling, or the window going away, aborts it and
 * removes the partial copy. Errors are values like every contract answer.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FileRef } from '../../shared/contract/user-files';
import type { UserFiles } from './user-files';

export interface UploadStart {
  name: string;
  type: string;
  size: number;
}

export async function stageUpload(
  userFiles: Pick<UserFiles, 'stage'>,
  start: UploadStart,
  messages: AsyncIterable<{ data: Uint8Array }>,
  signal: AbortSignal,
): Promise<FileRef> {
  const body = new PassThrough();
  const result = userFiles.stage(start.name, start.type, body, start.size, signal);
  // Awaited below; until then a failure must not count as unhandled.
  result.catch(() => {});
  try {
    for await (const { data } of messages) {
      if (body.destroyed) break;
      if (!body.write(data)) await Promise.race([once(body, 'drain'), once(body, 'close')]);
    }
  } finally {
    // The iterator also ends on cancel: only a page that closed its side finishes the file.
    if (signal.aborted) body.destroy();
    else body.end();
  }
  return result;
}

/**
 * Bytes of a file that only the page has, sent in chunks over a message channel (Electron IPC for a
 * File made in the page, with no disk path): each upload is a PassThrough feeding UserFiles.stage.
 * A chunk is acknowledged only once the stream took it, so a sender that awaits each one can never
 * outrun the disk. Uploads belong to their owner (a window); an owner that goes away aborts its own.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { WorkbenchFailure } from '../../shared/contract/errors';
import type { FileRef } from '../../shared/contract/user-files';
import type { UserFiles } from '../services/user-files';

/** What the page announces before the bytes. */
export interface ChunkedUploadStart {
  name: string;
  type: string;
  size: number;
}

interface Upload {
  owner: string;
  body: PassThrough;
  controller: AbortController;
  result: Promise<FileRef>;
}

function unknownUpload(): WorkbenchFailure {
  return new WorkbenchFailure({ code: 'not_found', message: 'This upload is not running (it ended or was cancelled).' });
}

/** The running chunked uploads of every owner. */
export class ChunkedStaging {
  private readonly uploads = new Map<string, Upload>();

  constructor(
    private readonly userFiles: Pick<UserFiles, 'stage'>,
    private readonly maxBytes: number,
  ) {}

  /** Starts an upload; returns its id. */
  begin(owner: string, start: ChunkedUploadStart): string {
    if (!Number.isSafeInteger(start.size) || start.size < 0 || typeof start.name !== 'string' || !start.name) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: 'An upload needs a file name and a size.' });
    }
    if (start.size > this.maxBytes) {
      throw new WorkbenchFailure({ code: 'invalid_input', message: `"${start.name}" is larger than the upload limit (${this.maxBytes} bytes).` });
    }
    const id = randomBytes(12).toString('base64url');
    const body = new PassThrough();
    const controller = new AbortController();
    const result = this.userFiles.stage(start.name, typeof start.type === 'string' ? start.type : '', body, start.size, controller.signal);
    // end() awaits it; until then a failure must not count as unhandled.
    result.catch(() => {});
    this.uploads.set(id, { owner, body, controller, result });
    void result.finally(() => this.uploads.delete(id)).catch(() => {});
    return id;
  }

  /** Adds bytes; resolves when the stream has room for more. */
  async chunk(owner: string, id: string, bytes: Uint8Array): Promise<void> {
    const upload = this.own(owner, id);
    if (!(bytes instanceof Uint8Array)) throw new WorkbenchFailure({ code: 'invalid_input', message: 'An upload chunk must be bytes.' });
    if (upload.body.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        upload.body.off('drain', done);
        upload.body.off('close', done);
        resolve();
      };
      upload.body.on('drain', done);
      upload.body.on('close', done);
    });
  }

  /** Ends the bytes and waits for the staged file's reference. */
  end(owner: string, id: string): Promise<FileRef> {
    const upload = this.own(owner, id);
    upload.body.end();
    return upload.result;
  }

  /** Stops one upload (the page cancelled): its temporary file is removed. */
  abort(owner: string, id: string): boolean {
    const upload = this.uploads.get(id);
    if (!upload || upload.owner !== owner) return false;
    upload.controller.abort();
    return true;
  }

  /** Stops every upload of `owner` (its window closed or reloaded). */
  abortOwner(owner: string): void {
    for (const upload of this.uploads.values()) if (upload.owner === owner) upload.controller.abort();
  }

  dispose(): void {
    for (const upload of this.uploads.values()) upload.controller.abort();
  }

  private own(owner: string, id: string): Upload {
    const upload = this.uploads.get(id);
    // Another window's upload id looks exactly like an unknown one.
    if (!upload || upload.owner !== owner) throw unknownUpload();
    return upload;
  }
}

/**
 * `POST /v1/files`: reads the multipart body as it arrives and writes the `file` part straight to
 * disk (`<id>.part`, renamed to `<id>` once the body is complete), so memory stays flat whatever
 * the size. The form's rules (wire-notes §5): `expires_after` (or `expires_after[anchor]` +
 * `expires_after[seconds]`) must come before `file`; the file part must be named `file` and carry
 * a filename; over `maxFileBytes` it stops at once with 413. Any failure removes the partial file.
 */
import { once } from 'node:events';
import { createWriteStream, renameSync, type WriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { boundaryOf, dispositionOf, MultipartError, MultipartParser, type MultipartEvent } from './multipart';
import { checkFilename, checkFormExpiresAfter } from './rules';
import { unlinkQuietly, type FileRecord, type FileStore } from './store';

/** Text fields are small; this bounds one that is not. */
const MAX_FIELD_BYTES = 64 * 1024;
/** Lets disk writes overlap with reading the socket (the default 16 KB made uploads twice as slow). */
const WRITE_BUFFER_BYTES = 1 << 20;
const EXPIRY_FIELDS = ['expires_after', 'expires_after[anchor]', 'expires_after[seconds]'];

export interface UploadRequest {
  req: IncomingMessage;
  store: FileStore;
  team: string;
  /** Sandbox clock at the start of the upload (the file's created_at). */
  nowMs: number;
  maxFileBytes: number;
}

interface FilePart {
  id: string;
  path: string;
  out: WriteStream;
  filename: string;
  contentType: string;
  bytes: number;
  done: boolean;
  /** A write error (disk full, no permission), kept until the upload next looks. */
  failed: Error | null;
}

/** Receives one upload; resolves with the stored record or throws a SandboxError (400/413/415). */
export async function receiveUpload(u: UploadRequest): Promise<FileRecord> {
  let boundary: string;
  try {
    boundary = boundaryOf(u.req.headers['content-type']);
  } catch (err) {
    u.req.resume();
    throw new SandboxError(415, `${(err as Error).message} Upload files as multipart/form-data with a "file" part.`);
  }
  const parser = new MultipartParser(boundary);
  const fields = new Map<string, string>();
  let current: { name: string; text: Buffer[]; size: number } | null = null;
  let file: FilePart | null = null;
  let expiresAt: number | null = null;

  const onEvent = async (event: MultipartEvent): Promise<void> => {
    if (event.type === 'part') {
      const { name, filename } = dispositionOf(event.headers['content-disposition']);
      if (name === undefined) throw new SandboxError(400, 'A multipart part has no name (Content-Disposition: form-data; name="...").');
      if (name === 'file' || filename !== undefined) {
        // Checked here, before any byte is written, since the expiry fields came first.
        expiresAt = expiryOf(fields, u.nowMs);
        file = startFile(u, name, filename, event.headers['content-type'], file);
        return;
      }
      if (file && EXPIRY_FIELDS.includes(name)) {
        throw new SandboxError(400, `${name} must come before the file part in the form: send expires_after first, then file.`);
      }
      // Which of two values would count is a guess either way: say so instead.
      if (fields.has(name) || current?.name === name) {
        throw new SandboxError(400, `The form has the field ${name} more than once; send each field once.`);
      }
      current = { name, text: [], size: 0 };
    } else if (event.type === 'data') {
      if (file && !file.done) await writeFileData(file, event.data, u.maxFileBytes);
      else if (current) {
        current.size += event.data.length;
        if (current.size > MAX_FIELD_BYTES) throw new SandboxError(400, `The form field ${current.name} is over ${MAX_FIELD_BYTES} bytes.`);
        current.text.push(Buffer.from(event.data));
      }
    } else if (event.type === 'part-end') {
      if (file && !file.done) {
        file.done = true;
        file.out.end();
        await waitFor(file, 'finish');
      } else if (current) {
        fields.set(current.name, Buffer.concat(current.text).toString('utf8'));
        current = null;
      }
    }
  };

  try {
    // destroyOnReturn: false keeps the connection when we stop early, so the client reads our 413.
    for await (const chunk of u.req.iterator({ destroyOnReturn: false })) {
      for (const event of parser.write(chunk as Buffer)) await onEvent(event);
    }
    parser.end();
    const part = file as FilePart | null;
    if (!part) throw new SandboxError(400, 'The form has no file part: send the file as the part named "file" (with a filename).');
    renameSync(`${part.path}.part`, part.path);
    return u.store.add({
      id: part.id,
      team: u.team,
      filename: part.filename,
      bytes: part.bytes,
      createdMs: u.nowMs,
      expiresAt,
      contentType: part.contentType,
      purpose: fields.get('purpose') ?? '',
      userDefinedId: fields.get('user_defined_id') ?? null,
    });
  } catch (err) {
    const part = file as FilePart | null;
    if (part) {
      // The stream opens its file asynchronously: wait for it to close so the unlink comes after.
      // Not events.once: destroying with writes in flight emits an error we do not care about.
      if (!part.out.closed) {
        const closed = new Promise<void>((resolve) => part.out.once('close', () => resolve()));
        part.out.destroy();
        await closed;
      }
      unlinkQuietly(`${part.path}.part`);
      unlinkQuietly(part.path);
    }
    // Drain what the client is still sending so it reads the answer instead of a reset.
    u.req.resume();
    if (err instanceof MultipartError) throw new SandboxError(400, err.message);
    throw err;
  }
}

function startFile(u: UploadRequest, name: string, filename: string | undefined, contentType: string | undefined, prior: FilePart | null): FilePart {
  if (prior) throw new SandboxError(400, 'The form has more than one file part; upload one file per request.');
  if (name !== 'file') throw new SandboxError(400, `The file part is named "${name}"; name it "file".`);
  if (filename === undefined || filename === '') {
    throw new SandboxError(400, 'The file part has no filename: send Content-Disposition: form-data; name="file"; filename="...".');
  }
  checkFilename(filename, 'The file part\'s filename');
  const id = u.store.newId();
  const path = u.store.pathOf(id);
  const part: FilePart = {
    id,
    path,
    out: createWriteStream(`${path}.part`, { mode: 0o600, highWaterMark: WRITE_BUFFER_BYTES }),
    filename,
    contentType: contentType?.trim() || 'application/octet-stream',
    bytes: 0,
    done: false,
    failed: null,
  };
  // Without a listener an error between two writes would take the whole sandbox down.
  part.out.on('error', (err) => {
    part.failed = err;
  });
  return part;
}

/** The 500 for bytes that could not be written. */
function diskError(err: Error): SandboxError {
  return new SandboxError(500, `The sandbox could not write the file to disk: ${err.message}`);
}

async function writeFileData(file: FilePart, data: Buffer, max: number): Promise<void> {
  file.bytes += data.length;
  if (file.bytes > max) {
    throw new SandboxError(413, `The file is larger than the sandbox's limit of ${max} bytes (maxFileBytes); upload a smaller file.`);
  }
  if (file.failed) throw diskError(file.failed);
  if (!file.out.write(data)) await waitFor(file, 'drain');
}

/** Waits for `drain` or `finish`; a write error (also one that came earlier) is a 500. */
async function waitFor(file: FilePart, event: 'drain' | 'finish'): Promise<void> {
  if (file.failed) throw diskError(file.failed);
  try {
    await once(file.out, event);
  } catch (err) {
    throw diskError(err as Error);
  }
}

/** Unix seconds of expiry from the form's fields, or null. */
function expiryOf(fields: Map<string, string>, nowMs: number): number | null {
  const plain = fields.get('expires_after');
  const anchor = fields.get('expires_after[anchor]');
  const seconds = fields.get('expires_after[seconds]');
  if (plain !== undefined && (anchor !== undefined || seconds !== undefined)) {
    throw new SandboxError(400, 'Send either expires_after or expires_after[anchor] + expires_after[seconds], not both.');
  }
  if (anchor !== undefined && anchor !== 'created_at') {
    throw new SandboxError(400, `expires_after[anchor] must be "created_at"; got ${JSON.stringify(anchor)}.`);
  }
  if (anchor !== undefined && seconds === undefined) throw new SandboxError(400, 'expires_after[anchor] needs expires_after[seconds].');
  const value = plain ?? seconds;
  if (value === undefined) return null;
  const n = checkFormExpiresAfter(value, plain !== undefined ? 'expires_after' : 'expires_after[seconds]');
  return Math.floor(nowMs / 1000) + n;
}

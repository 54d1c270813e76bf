/**
 * The body of `POST /v1/stt` (wire-notes 4.1): multipart/form-data whose text fields come first
 * and whose `file` part, if any, is the last part (the service streams the file, so nothing may
 * follow it). Text fields are small; the file is held in memory up to `maxBytes` (413 above it).
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { boundaryOf, dispositionOf, MultipartError, MultipartParser } from '../files/multipart';

const MAX_FIELD_BYTES = 4096;

export interface SttForm {
  fields: Array<[string, string]>;
  file: Uint8Array | null;
}

export async function readSttForm(req: IncomingMessage, maxBytes: number): Promise<SttForm> {
  let parser: MultipartParser;
  try {
    parser = new MultipartParser(boundaryOf(req.headers['content-type']));
  } catch (err) {
    req.resume();
    throw new SandboxError(415, `${(err as Error).message} POST /v1/stt takes multipart/form-data: the options as fields, then the audio as the last part, file (or a url field).`);
  }
  const fields: Array<[string, string]> = [];
  const fileChunks: Buffer[] = [];
  let fileSeen = false;
  let current: { name: string; isFile: boolean; chunks: Buffer[]; size: number } | null = null;
  let total = 0;
  try {
    for await (const chunk of req) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        req.resume();
        throw new SandboxError(413, `The request body is over ${maxBytes} bytes, the sandbox's limit for audio. Send a shorter or more compressed file (MP3, Ogg Opus, FLAC).`);
      }
      for (const event of parser.write(chunk as Buffer)) {
        if (event.type === 'part') {
          const { name } = dispositionOf(event.headers['content-disposition']);
          if (name === undefined) throw new SandboxError(400, 'A multipart part has no name (Content-Disposition: form-data; name="...").');
          if (fileSeen) throw new SandboxError(400, `The form field ${name} comes after file; file must be the last part of the form.`);
          const isFile = name === 'file';
          fileSeen ||= isFile;
          current = { name, isFile, chunks: isFile ? fileChunks : [], size: 0 };
        } else if (event.type === 'data' && current) {
          current.size += event.data.length;
          if (!current.isFile && current.size > MAX_FIELD_BYTES) throw new SandboxError(400, `The form field ${current.name} is over ${MAX_FIELD_BYTES} bytes; only file may be large.`);
          current.chunks.push(Buffer.from(event.data));
        } else if (event.type === 'part-end' && current) {
          if (!current.isFile) fields.push([current.name, Buffer.concat(current.chunks).toString('utf8')]);
          current = null;
        }
      }
    }
    parser.end();
  } catch (err) {
    if (err instanceof MultipartError) throw new SandboxError(400, err.message);
    throw err;
  }
  return { fields, file: fileSeen ? new Uint8Array(Buffer.concat(fileChunks)) : null };
}

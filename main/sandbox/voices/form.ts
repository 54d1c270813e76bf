/**
 * The multipart body of `POST /v1/custom-voices`: text fields and one `file` part (the reference
 * clip), read with the streaming parser of files/multipart.ts into memory, bounded by `maxBytes`.
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { boundaryOf, dispositionOf, MultipartError, MultipartParser } from '../files/multipart';

const MAX_FIELD_BYTES = 8 * 1024;

export interface VoiceForm {
  fields: Record<string, string>;
  file: { bytes: Buffer; filename: string | null } | null;
}

export async function readVoiceForm(req: IncomingMessage, maxBytes: number): Promise<VoiceForm> {
  let parser: MultipartParser;
  try {
    parser = new MultipartParser(boundaryOf(req.headers['content-type']));
  } catch (err) {
    req.resume();
    throw new SandboxError(415, `${(err as Error).message} Custom voices are created with a multipart form: the fields, then the reference audio as "file".`);
  }
  const fields: Record<string, string> = {};
  let file: VoiceForm['file'] = null;
  let current: { name: string; filename?: string; chunks: Buffer[]; bytes: number } | null = null;
  let total = 0;
  try {
    for await (const chunk of req) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        req.resume();
        throw new SandboxError(413, `The request body is over ${maxBytes} bytes, the limit for a reference clip. A clip of at most 120 seconds fits easily: send it compressed (MP3, FLAC, Ogg Opus) or at a lower rate.`);
      }
      for (const event of parser.write(chunk as Buffer)) {
        if (event.type === 'part') {
          const { name, filename } = dispositionOf(event.headers['content-disposition']);
          if (name === undefined) throw new SandboxError(400, 'A multipart part has no name (Content-Disposition: form-data; name="...").');
          current = { name, filename, chunks: [], bytes: 0 };
        } else if (event.type === 'data' && current) {
          current.bytes += event.data.length;
          if (current.name !== 'file' && current.bytes > MAX_FIELD_BYTES) throw new SandboxError(400, `The form field ${current.name} is over ${MAX_FIELD_BYTES} bytes.`);
          current.chunks.push(event.data);
        } else if (event.type === 'part-end' && current) {
          const { name } = current;
          if (name === 'file') {
            if (file) throw new SandboxError(400, 'The form has two "file" parts; send one reference clip.');
            file = { bytes: Buffer.concat(current.chunks), filename: current.filename ?? null };
          } else {
            if (name in fields) throw new SandboxError(400, `The form field ${name} is given twice.`);
            fields[name] = Buffer.concat(current.chunks).toString('utf8');
          }
          current = null;
        }
      }
    }
    parser.end();
  } catch (err) {
    if (err instanceof MultipartError) throw new SandboxError(400, err.message);
    throw err;
  }
  return { fields, file };
}

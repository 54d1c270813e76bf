/**
 * The body of `POST /v1/stt` (wire-notes 4.1): multipart/form-data whose text fields come first
 * and whose `file` part, if any, is the last part (the service streams the file, so nothing may
 * follow it). Text fields are small; the file is held in memory up to `maxBytes` (413 above it).
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { readMemoryForm } from '../files/memory-form';

const MAX_FIELD_BYTES = 4096;

export interface SttForm {
  fields: Array<[string, string]>;
  file: Uint8Array | null;
}

export async function readSttForm(req: IncomingMessage, maxBytes: number): Promise<SttForm> {
  const fields: Array<[string, string]> = [];
  let file: Uint8Array | null = null;
  let fileSeen = false;
  await readMemoryForm(req, {
    maxBytes,
    tooLarge: `The request body is over ${maxBytes} bytes, the sandbox's limit for audio. Send a shorter or more compressed file (MP3, Ogg Opus, FLAC).`,
    notMultipart: (reason) => `${reason} POST /v1/stt takes multipart/form-data: the options as fields, then the audio as the last part, file (or a url field).`,
    isFile: (part) => part.name === 'file',
    maxFieldBytes: MAX_FIELD_BYTES,
    fieldTooLarge: (name) => `The form field ${name} is over ${MAX_FIELD_BYTES} bytes; only file may be large.`,
    onPart: ({ name }) => {
      if (fileSeen) throw new SandboxError(400, `The form field ${name} comes after file; file must be the last part of the form.`);
      fileSeen = name === 'file';
    },
    onPartEnd: ({ name }, bytes) => {
      if (name === 'file') file = new Uint8Array(bytes);
      else fields.push([name, bytes.toString('utf8')]);
    },
  });
  return { fields, file };
}

/**
 * The multipart body of `POST /v1/custom-voices`: text fields and one `file` part (the reference
 * clip), read with the streaming parser of files/multipart.ts into memory, bounded by `maxBytes`.
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { readMemoryForm } from '../files/memory-form';

const MAX_FIELD_BYTES = 8 * 1024;

export interface VoiceForm {
  fields: Record<string, string>;
  file: { bytes: Buffer; filename: string | null } | null;
}

export async function readVoiceForm(req: IncomingMessage, maxBytes: number): Promise<VoiceForm> {
  const fields: Record<string, string> = {};
  let file: VoiceForm['file'] = null;
  await readMemoryForm(req, {
    maxBytes,
    tooLarge: `The request body is over ${maxBytes} bytes, the limit for a reference clip. A clip of at most 120 seconds fits easily: send it compressed (MP3, FLAC, Ogg Opus) or at a lower rate.`,
    notMultipart: (reason) => `${reason} Custom voices are created with a multipart form: the fields, then the reference audio as "file".`,
    isFile: (part) => part.name === 'file',
    maxFieldBytes: MAX_FIELD_BYTES,
    fieldTooLarge: (name) => `The form field ${name} is over ${MAX_FIELD_BYTES} bytes.`,
    onPartEnd: ({ name, filename }, bytes) => {
      if (name === 'file') {
        if (file) throw new SandboxError(400, 'The form has two "file" parts; send one reference clip.');
        file = { bytes, filename: filename ?? null };
      } else {
        if (name in fields) throw new SandboxError(400, `The form field ${name} is given twice.`);
        fields[name] = bytes.toString('utf8');
      }
    },
  });
  return { fields, file };
}

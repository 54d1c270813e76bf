/**
 * A multipart/form-data request read into memory with the streaming parser (multipart.ts), for the
 * routes whose forms are small enough to hold (speech to text, a custom voice's clip, image
 * edits): the body bounded by `maxBytes` (413), text parts by `maxFieldBytes` (400), each part
 * handed on whole as it ends. What the parts mean, and which order a route requires, is the
 * route's; the errors for a body that is not multipart or is malformed are the same everywhere.
 */
import type { IncomingMessage } from 'node:http';
import { SandboxError } from '../errors';
import { boundaryOf, dispositionOf, MultipartError, MultipartParser } from './multipart';

export interface FormPartHead {
  name: string;
  filename: string | undefined;
  /** The part's Content-Type (application/octet-stream when it has none). */
  contentType: string;
}

export interface MemoryFormRules {
  maxBytes: number;
  /** The 413 message when the body goes over `maxBytes`. */
  tooLarge: string;
  /** The 415 message for a body that is not multipart (`reason` is the parser's). */
  notMultipart: (reason: string) => string;
  /** Whether the part is a file (not bound by `maxFieldBytes`). */
  isFile: (part: FormPartHead) => boolean;
  maxFieldBytes: number;
  /** The 400 message for a text part over `maxFieldBytes`. */
  fieldTooLarge: (name: string) => string;
  /** A part begins (throw a SandboxError to refuse it, e.g. a field after the file). */
  onPart?: (part: FormPartHead) => void;
  /** A part ended, with all its bytes. */
  onPartEnd: (part: FormPartHead, bytes: Buffer) => void;
}

export async function readMemoryForm(req: IncomingMessage, rules: MemoryFormRules): Promise<void> {
  let parser: MultipartParser;
  try {
    parser = new MultipartParser(boundaryOf(req.headers['content-type']));
  } catch (err) {
    req.resume();
    throw new SandboxError(415, rules.notMultipart((err as Error).message));
  }
  let current: { head: FormPartHead; isFile: boolean; chunks: Buffer[]; size: number } | null = null;
  let total = 0;
  try {
    for await (const chunk of req) {
      total += (chunk as Buffer).length;
      if (total > rules.maxBytes) {
        req.resume();
        throw new SandboxError(413, rules.tooLarge);
      }
      for (const event of parser.write(chunk as Buffer)) {
        if (event.type === 'part') {
          const { name, filename } = dispositionOf(event.headers['content-disposition']);
          if (name === undefined) throw new SandboxError(400, 'A multipart part has no name (Content-Disposition: form-data; name="...").');
          const head: FormPartHead = { name, filename, contentType: event.headers['content-type'] ?? 'application/octet-stream' };
          rules.onPart?.(head);
          current = { head, isFile: rules.isFile(head), chunks: [], size: 0 };
        } else if (event.type === 'data' && current) {
          current.size += event.data.length;
          if (!current.isFile && current.size > rules.maxFieldBytes) throw new SandboxError(400, rules.fieldTooLarge(current.head.name));
          current.chunks.push(Buffer.from(event.data));
        } else if (event.type === 'part-end' && current) {
          rules.onPartEnd(current.head, Buffer.concat(current.chunks));
          current = null;
        }
      }
    }
    parser.end();
  } catch (err) {
    if (err instanceof MultipartError) throw new SandboxError(400, err.message);
    throw err;
  }
}

/**
 * The body of `POST /v1/images/edits`, which comes two ways: JSON (the service's documented form,
 * `image: {url | file_id}`) or multipart/form-data, which is what the official OpenAI SDK's
 * `images.edit` sends: an `image` file part (or repeated `image[]` parts for several references),
 * text parts for the other fields, and objects as bracketed names (`image[url]`). Both become the
 * same JSON-like object for the shared validator; file parts become `UploadedPart`s.
 *
 * Edits carry images inline, so their body limit is larger than the JSON endpoints' 20 MB.
 */
import type { IncomingMessage } from 'node:http';
import { readJsonBody } from '../body';
import { SandboxError } from '../errors';
import { readMemoryForm, type FormPartHead } from '../files/memory-form';
import { UploadedPart } from '../media/input';

export const EDIT_MAX_BODY_BYTES = 64 * 1024 * 1024;
const MAX_TEXT_PART_BYTES = 64 * 1024;

/** Reads the edit body as JSON or multipart (415 for anything else). */
export async function readEditBody(req: IncomingMessage, maxBytes = EDIT_MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (/^multipart\/form-data\b/i.test(type)) return readEditForm(req, maxBytes);
  if (/^application\/([\w.+-]*\+)?json\b/i.test(type)) return (await readJsonBody(req, maxBytes)).json;
  req.resume();
  throw new SandboxError(415, `Expected a JSON body ("Content-Type: application/json") or multipart/form-data with an image file part${type ? `; got "${type}"` : ' (the Content-Type header is missing)'}.`);
}

interface Part extends FormPartHead {
  bytes: Buffer;
}

async function readEditForm(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const parts: Part[] = [];
  await readMemoryForm(req, {
    maxBytes,
    tooLarge: `The request body is over ${maxBytes} bytes, the limit for image edits. Send smaller images, or upload them with POST /v1/files and pass file_id.`,
    notMultipart: (reason) => reason,
    isFile: (part) => part.filename !== undefined,
    maxFieldBytes: MAX_TEXT_PART_BYTES,
    fieldTooLarge: (name) => `The form field ${name} is over ${MAX_TEXT_PART_BYTES} bytes; send images as file parts.`,
    onPartEnd: (head, bytes) => parts.push({ ...head, bytes }),
  });
  return formToBody(parts);
}

/** Text parts to fields (n as a number, stream as a boolean), file parts to UploadedParts, `a[b]` to objects. */
function formToBody(parts: readonly Part[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const files = parts.filter((p) => p.filename !== undefined);
  const imageFiles = files.filter((p) => p.name === 'image' || p.name === 'image[]' || p.name === 'images' || p.name === 'images[]');
  const other = files.find((p) => !imageFiles.includes(p));
  if (other) throw new SandboxError(400, `The form has a file part named "${other.name}"; image edits take image files as "image" (one) or "image[]" (several).`);
  const uploads = imageFiles.map((p) => new UploadedPart(new Uint8Array(p.bytes), p.filename as string, p.contentType));
  if (imageFiles.length === 1 && imageFiles[0].name === 'image') body.image = uploads[0];
  else if (imageFiles.length > 0) body.images = uploads;

  const seen = new Set<string>();
  for (const part of parts) {
    if (part.filename !== undefined) continue;
    if (seen.has(part.name)) throw new SandboxError(400, `The form field ${part.name} is given twice.`);
    seen.add(part.name);
    const text = part.bytes.toString('utf8');
    const nested = /^(image|images\[(\d+)\])\[(\w+)\]$/.exec(part.name);
    if (nested) {
      const target = nested[2] === undefined ? objectAt(body, 'image') : objectIn(body, Number(nested[2]));
      target[nested[3]] = text;
      continue;
    }
    // A URL given as a text part where the SDK would put a file.
    if (part.name === 'image') {
      body.image = { url: text };
      continue;
    }
    if (part.name === 'image[]') {
      imageList(body).push({ url: text });
      continue;
    }
    body[part.name] = part.name === 'n' && /^\d+$/.test(text) ? Number(text) : part.name === 'stream' && /^(true|false)$/.test(text) ? text === 'true' : text;
  }
  return body;
}

function objectAt(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const existing = body[key];
  if (typeof existing === 'object' && existing !== null && !(existing instanceof UploadedPart) && !Array.isArray(existing)) return existing as Record<string, unknown>;
  const fresh: Record<string, unknown> = {};
  body[key] = fresh;
  return fresh;
}

function imageList(body: Record<string, unknown>): unknown[] {
  if (!Array.isArray(body.images)) body.images = [];
  return body.images as unknown[];
}

function objectIn(body: Record<string, unknown>, index: number): Record<string, unknown> {
  const list = imageList(body);
  if (index > 100) throw new SandboxError(400, `The form field images[${index}] is out of range.`);
  while (list.length <= index) list.push({});
  return list[index] as Record<string, unknown>;
}

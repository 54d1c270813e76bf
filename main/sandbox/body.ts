/**
 * Request bodies: JSON with the service's rejections (415 without a JSON content type or with an
 * empty body, 413 over the size limit, 400 for malformed JSON), or raw bytes for multipart routes.
 */
import type { IncomingMessage } from 'node:http';
import { jsonShapeProblem } from '../../shared/json-shape';
import { SandboxError } from './errors';

/** Default body limit: generous for chat with inline images, small enough to refuse abuse. */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * Reads the whole body. Over `maxBytes` it keeps draining (so the client sees the answer rather
 * than a reset connection) and then throws 413.
 */
export async function readRawBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) tooLarge = true;
    else chunks.push(buf);
  }
  if (tooLarge) {
    throw new SandboxError(413, `The request body is ${size} bytes; the limit is ${maxBytes} bytes. Send a smaller body.`);
  }
  return Buffer.concat(chunks);
}

/** Checks the content type, reads and parses a JSON body. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<{ json: unknown; raw: string }> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    req.resume();
    throw new SandboxError(
      415,
      `Expected a JSON body with "Content-Type: application/json"${type ? `, got "${type}"` : ' (the header is missing)'}.`,
    );
  }
  const raw = (await readRawBody(req, maxBytes)).toString('utf8');
  if (raw.trim() === '') throw new SandboxError(415, 'The request body is empty: send a JSON object.');
  let json: unknown;
  try {
    json = JSON.parse(raw) as unknown;
  } catch (err) {
    throw new SandboxError(400, `The request body is not valid JSON: ${(err as Error).message}`);
  }
  // Validation and the recorded copy recurse: refuse what would overflow the stack, by name.
  const shape = jsonShapeProblem(json);
  if (shape) throw new SandboxError(400, `The request body ${shape.path ? `at ${shape.path} ` : ''}${shape.message}.`);
  return { json, raw };
}

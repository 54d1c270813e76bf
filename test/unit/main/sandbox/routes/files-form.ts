/** Test helper: hand-built multipart bodies (so tests can send what FormData never would) and file requests. */
import { KEY, type Harness } from '../harness';

export interface FormPart {
  name?: string;
  filename?: string;
  contentType?: string;
  body: string | Buffer;
}

export const BOUNDARY = '----sandbox-files-test';

/** Encodes parts in order; a part without `name` gets a Content-Disposition without one. */
export function multipart(parts: FormPart[]): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    let disposition = 'form-data';
    if (p.name !== undefined) disposition += `; name="${p.name}"`;
    if (p.filename !== undefined) disposition += `; filename="${p.filename}"`;
    const headers = [`Content-Disposition: ${disposition}`, ...(p.contentType ? [`Content-Type: ${p.contentType}`] : [])];
    pieces.push(Buffer.from(`--${BOUNDARY}\r\n${headers.join('\r\n')}\r\n\r\n`), Buffer.from(p.body), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** POSTs a hand-built form to /v1/files. */
export function upload(h: Harness, parts: FormPart[], key = KEY): Promise<Response> {
  return fetch(`${h.sandbox.url}/v1/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: multipart(parts),
  });
}

/** Uploads one small file (extra form fields first) and returns its File object. */
export async function uploadFile(
  h: Harness,
  filename: string,
  body: string | Buffer,
  fields: Record<string, string> = {},
  key = KEY,
): Promise<Record<string, any>> {
  const parts: FormPart[] = [...Object.entries(fields).map(([name, value]) => ({ name, body: value })), { name: 'file', filename, body }];
  const res = await upload(h, parts, key);
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

/** Any request with the test key. */
export function call(h: Harness, method: string, path: string, body?: unknown, key = KEY): Promise<Response> {
  return fetch(`${h.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The status and error message of a refusal. */
export async function refusal(res: Response): Promise<{ status: number; error: string }> {
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

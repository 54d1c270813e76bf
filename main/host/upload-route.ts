/**
 * Browser mode's `POST /upload-lane/<ticket>/<index>`: one chunk of a `userFiles.upload` session's
 * bytes, sent by the page with `fetch(body: Blob)` (main/services/upload-lane.ts). Guarded like the
 * WebSocket: the page token as a Bearer header (checked by the server before this runs), our own
 * Origin (a fetch always sends one with a POST), and the ticket main gave only to the tab that
 * opened the upload. The body is streamed into the staging, never held; the answer comes once it
 * is taken: 200 `{ received }`, or the refusal as `{ error: { code, message } }`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { UploadLanes } from '../services/upload-lane';

export const UPLOAD_LANE_PATH = '/upload-lane/';

const ADDRESS = /^\/upload-lane\/([A-Za-z0-9_-]{43})\/(\d{1,7})$/;

function answer(res: ServerResponse, headers: Record<string, string>, status: number, body: unknown, close = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...(close ? { Connection: 'close' } : {}) });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, headers: Record<string, string>, status: number, error: WorkbenchError): void {
  // The body was not read: the connection cannot be reused for the next request.
  answer(res, headers, status, { error }, true);
}

/** Serves one chunk request; the caller has checked the Host header and the Bearer token. */
export async function serveUploadLane(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  options: { lanes: UploadLanes; originAllowed: boolean; headers: Record<string, string> },
): Promise<void> {
  const { headers } = options;
  if (!options.originAllowed) return refuse(res, headers, 403, { code: 'invalid_input', message: 'Forbidden: unexpected Origin.' });
  if (req.method !== 'POST') return refuse(res, headers, 405, { code: 'invalid_input', message: 'Chunks of an upload are sent with POST.' });
  const address = ADDRESS.exec(pathname);
  if (!address) return refuse(res, headers, 404, { code: 'not_found', message: 'No upload is open at this address.' });
  const lengthHeader = req.headers['content-length'];
  if (lengthHeader === undefined || !/^\d+$/.test(lengthHeader)) {
    return refuse(res, headers, 411, { code: 'invalid_input', message: 'A chunk must say its length (Content-Length).' });
  }
  // A connection that drops mid-body does not always end the body's iterator: make it throw, so
  // the lane fails the upload at once (and its partial file goes) instead of waiting for a stall.
  req.once('close', () => {
    if (!req.complete) req.destroy(new Error('the connection closed mid-chunk'));
  });
  const outcome = await options.lanes.offer(address[1]!, Number(address[2]), Number(lengthHeader), req);
  if (outcome.ok) return answer(res, headers, 200, { received: outcome.received });
  refuse(res, headers, outcome.status, outcome.error);
}

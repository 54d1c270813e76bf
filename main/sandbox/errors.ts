/**
 * Sandbox errors as values: an HTTP status, a message a person can act on and optional headers.
 * Written to the wire in the service-native body `{"code": "<status text>", "error": "<message>"}`
 * (wire-notes rule 4 and §7).
 */
import type { ServerResponse } from 'node:http';
import { STATUS_CODE_TEXT, type NativeErrorBody } from '../../shared/wire/errors';

/** An error the sandbox answers with; thrown by routes, caught by the server. */
export class SandboxError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
    this.headers = headers;
  }
}

/** The wire body for a status and message. */
export function errorBody(status: number, message: string): NativeErrorBody {
  return { code: STATUS_CODE_TEXT[status] ?? `HTTP ${status}`, error: message };
}

/** Writes an error response unless headers were already sent (then the stream is just ended). */
export function sendError(res: ServerResponse, err: SandboxError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(errorBody(err.status, err.message));
  res.writeHead(err.status, {
    ...err.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** 404 for a model id that is neither an id nor an alias in the catalogue. */
export function modelNotFound(model: string): SandboxError {
  return new SandboxError(404, `The model ${model} does not exist or your team does not have access to it.`);
}

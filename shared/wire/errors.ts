/**
 * HTTP error bodies (wire-notes §7). The sandbox emits the service-native shape; the client
 * understands both it and the OpenAI shape.
 */

/** Service-native: `{"code":"Client specified an invalid argument","error":"..."}`. */
export interface NativeErrorBody {
  code: string;
  error: string;
}

/** OpenAI-style: `{"error":{"message","type","param","code"}}`. */
export interface OpenAiErrorBody {
  error: { message: string; type?: string | null; param?: string | null; code?: string | number | null };
}

/** gRPC-style status descriptions the service uses as `code` (wire-notes §7). */
export const STATUS_CODE_TEXT: Record<number, string> = {
  400: 'Client specified an invalid argument',
  401: 'The request does not have valid authentication credentials',
  403: 'The caller does not have permission to execute the specified operation',
  404: 'Some requested entity was not found',
  405: 'Method not allowed',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Client specified an invalid argument',
  429: 'Some resource has been exhausted',
  500: 'Internal error',
  503: 'The service is currently unavailable',
};

/** Reads a message and code out of either body shape; null when it is neither. */
export function parseErrorBody(body: unknown): { message: string; code: string | null } | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (typeof b.error === 'string') {
    return { message: b.error, code: typeof b.code === 'string' ? b.code : null };
  }
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    if (typeof e.message === 'string') {
      const code = e.code ?? e.type;
      return { message: e.message, code: code === null || code === undefined ? null : String(code) };
    }
  }
  return null;
}

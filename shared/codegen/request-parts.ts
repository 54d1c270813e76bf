/**
 * What every snippet takes from a recorded request: the key's variable name (checked), the headers
 * worth repeating (secrets, redacted values and transport headers removed) and the body as text.
 */
import { isObject } from '../is-object';

/** The variable the generated snippets read the key from. */
export const API_KEY_ENV = 'WORKBENCH_API_KEY';

export interface CodegenOptions {
  /** Environment variable holding the key (default WORKBENCH_API_KEY). */
  apiKeyEnv?: string;
  /**
   * The connection's URL now, the default of `$WORKBENCH_BASE_URL` (default: the root of the
   * recorded URL). The built-in sandbox may listen elsewhere than when the run was recorded.
   */
  baseUrl?: string;
  /** The key's value, written in the snippet's header: only for the built-in sandbox, whose key is no secret. */
  shownApiKey?: string;
}

/** Headers the HTTP library sets itself, or that would leak or pin a secret / stale value. */
export const DROPPED_HEADERS = new Set([
  'authorization',
  'x-api-key',
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'user-agent',
]);

/** Values the recorder writes in place of a secret (main/api/http-headers redactHeaders). */
export const REDACTED_VALUE = /^(bearer\s+)?(\*{3,}|\[redacted\])$/i;

/** The variable name, refused when a shell or a program would misread it. */
export function apiKeyEnv(opts: CodegenOptions): string {
  const env = opts.apiKeyEnv ?? API_KEY_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) throw new Error(`invalid environment variable name: ${env}`);
  return env;
}

/** Body as sent: strings verbatim, anything else as pretty JSON. */
export function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

/** Request headers worth repeating as recorded: the key, transport headers and redacted values (environment.ts secretHeaders) removed. */
export function portableHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers).filter(
    ([name, value]) => !DROPPED_HEADERS.has(name.toLowerCase()) && !REDACTED_VALUE.test(value.trim()),
  );
}

/** Headers an SDK sets itself (content negotiation) on top of the portable ones. */
const SDK_OWNED = new Set(['accept', 'content-type']);

/** Extra headers to hand an SDK as default headers (e.g. x-svc-conv-id). */
export function sdkHeaders(headers: Record<string, string>): [string, string][] {
  return portableHeaders(headers).filter(([name]) => !SDK_OWNED.has(name.toLowerCase()));
}

/** The body as a JSON object, or null when it is not one (a string body, none at all). */
export function bodyObject(body: unknown): Record<string, unknown> | null {
  return isObject(body) ? body : null;
}

/** True when the recorded body asked for a stream. */
export function isStreaming(body: unknown): boolean {
  return bodyObject(body)?.stream === true;
}

/** True when the recorded body defines at least one tool. */
export function hasTools(body: unknown): boolean {
  const tools = bodyObject(body)?.tools;
  return Array.isArray(tools) && tools.length > 0;
}

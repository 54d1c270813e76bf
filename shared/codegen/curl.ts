/**
 * "Copy as curl": a recorded request as a shell command. The API key is never written into the
 * command; it is read from an environment variable when the command runs.
 */
import type { CapturedRequest } from '../contract/runs';
import { shellQuote } from './shell-quote';

/** The variable the generated snippets read the key from. */
export const API_KEY_ENV = 'WORKBENCH_API_KEY';

export interface CodegenOptions {
  /** Environment variable holding the key (default WORKBENCH_API_KEY). */
  apiKeyEnv?: string;
}

/** Headers curl sets itself, or that would leak or pin a secret / stale value. */
const DROPPED_HEADERS = new Set(['authorization', 'x-api-key', 'content-length', 'host', 'connection', 'accept-encoding']);

/** Body as sent: strings verbatim, anything else as pretty JSON. */
export function bodyText(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  return typeof body === 'string' ? body : JSON.stringify(body, null, 2);
}

/** Request headers worth reproducing, secrets and transport headers removed. */
export function portableHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers).filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()));
}

/** A multi-line curl command for the request, authenticating with `$WORKBENCH_API_KEY`. */
export function toCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = opts.apiKeyEnv ?? API_KEY_ENV;
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) throw new Error(`invalid environment variable name: ${env}`);
  const lines = [`curl -X ${request.method.toUpperCase()} ${shellQuote(request.url)}`];
  // Double quotes so the shell expands the variable; the name was checked above.
  lines.push(`-H "Authorization: Bearer $${env}"`);
  for (const [name, value] of portableHeaders(request.headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  const body = bodyText(request.body);
  if (body !== null) lines.push(`--data-raw ${shellQuote(body)}`);
  return lines.join(' \\\n  ');
}

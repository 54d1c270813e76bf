/**
 * "Copy as curl": a recorded request as a shell command. The API key is never written into the
 * command; it is read from an environment variable when the command runs.
 */
import type { CapturedRequest } from '../contract/runs';
import { environmentHeader, secretHeaders, shellUrl, splitRequestUrl } from './environment';
import { apiKeyEnv, bodyText, isStreaming, portableHeaders, type CodegenOptions } from './request-parts';
import { shellQuote } from './shell-quote';

export { API_KEY_ENV, bodyText, portableHeaders, type CodegenOptions } from './request-parts';

/**
 * A multi-line curl command for the request under a comment saying what to set: the URL from
 * `$WORKBENCH_BASE_URL` (default the connection's), the key from `$WORKBENCH_API_KEY`.
 */
export function toCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  // -sS: no progress meter in the output, but errors still shown.
  const lines = [`curl -X ${request.method.toUpperCase()} ${shellUrl(splitRequestUrl(request, opts))} -sS`];
  // A streamed answer is printed as its events arrive rather than when curl's buffer fills.
  if (isStreaming(request.body)) lines[0] += ' --no-buffer';
  // Double quotes so the shell expands the variable; the name was checked above.
  lines.push(`-H "Authorization: Bearer $${env}"`);
  for (const [name, value] of portableHeaders(request.headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  // Header names are letters, digits and dashes (the contract's rule), safe in double quotes.
  for (const [name, envName] of secretHeaders(request.headers)) lines.push(`-H "${name}: $${envName}"`);
  const body = bodyText(request.body);
  if (body !== null) lines.push(`--data-raw ${shellQuote(body)}`);
  return [...environmentHeader(request, opts, '#'), lines.join(' \\\n  ')].join('\n');
}

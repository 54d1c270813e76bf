/**
 * What an exported snippet takes from the environment, and the header that says so: the
 * service's root URL (`$WORKBENCH_BASE_URL`, defaulting to the connection the run was made on),
 * the key (`$WORKBENCH_API_KEY`) and the value of each custom header the recorder redacted
 * (`$WORKBENCH_HEADER_<NAME>`). A snippet run as shown, with those set, repeats the request.
 */
import type { CapturedRequest } from '../contract/runs';
import { apiKeyEnv, REDACTED_VALUE, DROPPED_HEADERS, type CodegenOptions } from './request-parts';
import { stringLiteral } from './literals';
import { shellQuote } from './shell-quote';

/** The variable the generated snippets read the service's root URL from. */
export const BASE_URL_ENV = 'WORKBENCH_BASE_URL';

/** The recorded URL split into the service's root (what `$WORKBENCH_BASE_URL` replaces) and the rest. */
export interface SplitUrl {
  /** Scheme, authority and any path before the version segment, no trailing slash: `http://127.0.0.1:4010`. */
  base: string;
  /** From the version segment on, with the query: `/v1/chat/completions`. */
  rest: string;
}

/** A trailing `/v1` (any version) names the API, not the service: the rest already starts with it. */
function rootOf(url: string): string {
  return url.trim().replace(/\/+$/, '').replace(/\/v\d+$/, '');
}

/**
 * Splits the request's URL at its first version segment (`/v1/...`); a URL without one keeps its
 * whole path as the rest. `opts.baseUrl` (the connection's URL now) replaces the recorded root.
 */
export function splitRequestUrl(request: CapturedRequest, opts: CodegenOptions = {}): SplitUrl {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)([^?#]*)(.*)$/i.exec(request.url.trim());
  if (!match) return { base: rootOf(opts.baseUrl ?? ''), rest: request.url };
  const [, origin, path, tail] = match as unknown as [string, string, string, string];
  const at = path.search(/\/v\d+(\/|$)/);
  const recordedBase = at >= 0 ? origin + path.slice(0, at) : origin;
  const rest = (at >= 0 ? path.slice(at) : path) + tail;
  return { base: opts.baseUrl ? rootOf(opts.baseUrl) : rootOf(recordedBase), rest };
}

/** `X-Upstream-Token` -> `WORKBENCH_HEADER_X_UPSTREAM_TOKEN`. */
export function headerEnvName(header: string): string {
  return `WORKBENCH_HEADER_${header.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Custom headers whose value the recorder redacted (secret-looking names): the snippet reads each
 * value from its own variable instead. App-owned headers (the key, framing) are not among them.
 */
export function secretHeaders(headers: Record<string, string>): [string, string][] {
  return Object.entries(headers)
    // Only names a shell word and a variable name can carry (the contract allows no others).
    .filter(([name, value]) => /^[A-Za-z0-9-]+$/.test(name) && !DROPPED_HEADERS.has(name.toLowerCase()) && REDACTED_VALUE.test(value.trim()))
    .map(([name]) => [name, headerEnvName(name)]);
}

/** Escapes what a double-quoted shell word would expand (and `}`, which would end `${...}`). */
const dq = (s: string, brace = false): string => s.replace(brace ? /[\\"$`}]/g : /[\\"$`]/g, (c) => `\\${c}`);

/** `"${WORKBENCH_BASE_URL:-http://...}/v1/..."`: the URL as one double-quoted shell word. */
export function shellUrl(split: SplitUrl): string {
  return `"\${${BASE_URL_ENV}:-${dq(split.base, true)}}${dq(split.rest)}"`;
}

/** Python: the root from the environment (an empty variable counts as unset), then `suffix`. */
export function pyUrl(base: string, suffix: string): string {
  const root = `(os.environ.get(${stringLiteral(BASE_URL_ENV)}) or ${stringLiteral(base)}).rstrip("/")`;
  return suffix ? `${root} + ${stringLiteral(suffix)}` : root;
}

/** TypeScript: the root from the environment (an empty variable counts as unset), then `suffix`. */
export function tsUrl(base: string, suffix: string): string {
  const root = `(process.env[${stringLiteral(BASE_URL_ENV)}] || ${stringLiteral(base)}).replace(/\\/+$/, "")`;
  return suffix ? `${root} + ${stringLiteral(suffix)}` : root;
}

/**
 * The comment block at the top of every snippet: which variables to set, with the values that
 * can be shown. `shownApiKey` is given for the built-in sandbox only: it is local and its outputs
 * synthetic, so its key is no secret, and a snippet that says it runs as pasted.
 */
export function environmentHeader(request: CapturedRequest, opts: CodegenOptions, comment: '#' | '//'): string[] {
  const env = apiKeyEnv(opts);
  const { base, rest } = splitRequestUrl(request, opts);
  const lines = [`${request.method.toUpperCase()} ${base}${rest}`];
  if (opts.shownApiKey !== undefined) {
    lines.push('Set first (the built-in sandbox: local, synthetic outputs, so its key is no secret):');
    lines.push(`  export ${env}=${shellQuote(opts.shownApiKey)}`);
  } else {
    lines.push('Set first:', `  export ${env}=<your API key>`);
  }
  for (const [name, envName] of secretHeaders(request.headers)) lines.push(`  export ${envName}=<the value of ${name}>`);
  lines.push(`Optional: ${BASE_URL_ENV}, the service's root URL without /v1 (default ${base}).`);
  return lines.map((line) => `${comment} ${line}`);
}

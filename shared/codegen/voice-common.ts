/**
 * What the voice exporters (voice-tts.ts, voice-stt.ts, voice-voices.ts) share: the service's
 * root for plain HTTP and for a WebSocket (a recorded socket's URL is `ws://…`, the connection's
 * is `http://…`: snippets turn the root into `ws`/`wss` themselves, so `$WORKBENCH_BASE_URL` stays
 * one http URL), the headers every snippet sends, and the answer for the SDK tabs (no official SDK
 * has a voice method, so those tabs point to the plain ones).
 */
import type { CapturedRequest } from '../contract/runs';
import type { ExportResult } from '../families/types';
import { BASE_URL_ENV, environmentHeader, secretHeaders, shellUrl, splitRequestUrl, tsUrl } from './environment';
import { pyLiteral, stringLiteral, tsLiteral } from './literals';
import { apiKeyEnv, portableHeaders, type CodegenOptions } from './request-parts';
import { shellQuote } from './shell-quote';

/** The SDK tabs of a voice endpoint. */
export const NO_VOICE_SDK: ExportResult = { unsupported: 'The official SDKs have no voice methods: choose Python or TypeScript (plain HTTP / WebSocket).' };

/** The recorded request with an http(s) URL (a socket's is recorded as ws(s)). */
export function asHttp(request: CapturedRequest): CapturedRequest {
  return { ...request, url: request.url.replace(/^ws(s?):\/\//i, 'http$1://') };
}

/** The service's root (http) and the path with its query, from `opts.baseUrl` or the recorded URL. */
export function rootAndRest(request: CapturedRequest, opts: CodegenOptions): { base: string; rest: string } {
  return splitRequestUrl(asHttp(request), opts);
}

/** The recorded query, as [name, value] pairs in order. */
export function queryOf(request: CapturedRequest): [string, string][] {
  const at = request.url.indexOf('?');
  if (at < 0) return [];
  // Parsed by hand: shared/ has no URLSearchParams (no DOM or Node types here).
  const decode = (text: string): string => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  return request.url
    .slice(at + 1)
    .replace(/#.*$/, '')
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [decode(pair), ''] : [decode(pair.slice(0, eq)), decode(pair.slice(eq + 1))];
    });
}

/** Body keys a socket run's recorder uses for what is not the query (the text sent, the file streamed). */
const NOT_QUERY = new Set(['messages', 'text', 'deltas', 'filename', 'query']);

/** A query object's entries as strings (an array is a repeated parameter); null when it is not one. */
function queryEntries(value: unknown): [string, string][] | null {
  if (typeof value === 'string') {
    try {
      return queryEntries(JSON.parse(value));
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') out.push([k, String(item)]);
    }
  }
  return out;
}

/**
 * A socket run as its snippet needs it: the query in the URL. Recorders keep it there (speech) or
 * in the body (live transcription records `GET ws://…/v1/stt` with the query as the body, a JSON
 * string or an object, or `{ query }`): a URL without a query takes the body's.
 */
export function withSocketQuery(request: CapturedRequest): CapturedRequest {
  if (request.url.includes('?')) return request;
  const body = typeof request.body === 'string' ? queryEntries(request.body) : null;
  const nested = typeof request.body === 'object' && request.body !== null ? (request.body as { query?: unknown }).query : undefined;
  const entries =
    body ??
    queryEntries(nested) ??
    (queryEntries(request.body) ?? []).filter(([k]) => !NOT_QUERY.has(k));
  if (entries.length === 0) return request;
  const query = entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return { ...request, url: `${request.url}?${query}` };
}

/** The path without the query. */
export function pathOnly(rest: string): string {
  return rest.replace(/[?#].*$/, '');
}

/** Headers a snippet repeats besides the key and the framing it sets itself. */
export function extraHeaders(request: CapturedRequest): [string, string][] {
  return portableHeaders(request.headers).filter(([n]) => !/^(content-type|accept|sec-websocket-[a-z-]+|upgrade|connection)$/i.test(n));
}

/** Python: the headers dict's entries (the key from the environment, never inlined). */
export function pyHeaderLines(request: CapturedRequest, opts: CodegenOptions, indent = '    '): string[] {
  return [
    `${indent}"Authorization": "Bearer " + os.environ[${pyLiteral(apiKeyEnv(opts))}],`,
    ...extraHeaders(request).map(([n, v]) => `${indent}${pyLiteral(n)}: ${pyLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, env]) => `${indent}${pyLiteral(n)}: os.environ.get(${pyLiteral(env)}, ""),`),
  ];
}

/** TypeScript: the headers object's entries. */
export function tsHeaderLines(request: CapturedRequest, opts: CodegenOptions, indent = '  '): string[] {
  return [
    `${indent}Authorization: \`Bearer \${process.env[${stringLiteral(apiKeyEnv(opts))}]}\`,`,
    ...extraHeaders(request).map(([n, v]) => `${indent}${stringLiteral(n)}: ${stringLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, env]) => `${indent}${stringLiteral(n)}: process.env[${stringLiteral(env)}] ?? "",`),
  ];
}

/** curl: the command's first arguments: the URL (with `-X method` when given), the key, the repeated headers. */
export function curlStart(request: CapturedRequest, opts: CodegenOptions, method?: string): string[] {
  return [
    `curl -sS --fail-with-body${method ? ` -X ${method}` : ''} ${shellUrl(rootAndRest(request, opts))}`,
    `-H "Authorization: Bearer $${apiKeyEnv(opts)}"`,
    ...extraHeaders(request).map(([n, v]) => `-H ${shellQuote(`${n}: ${v}`)}`),
  ];
}

/** Python: the `headers` dict (the key, the repeated headers, then `more` entries, each a full line). */
export function pyHeaders(request: CapturedRequest, opts: CodegenOptions, more: string[] = []): string[] {
  return ['headers = {', ...pyHeaderLines(request, opts), ...more, '}'];
}

/**
 * Python: `request` sent with urllib, `read` (lines inside `with urlopen(request) as response:`)
 * taking what it needs of the answer; an HTTP error exits with its status and body.
 */
export function pyUrlopen(read: string[]): string[] {
  return [
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    ...read.map((line) => `        ${line}`),
    'except urllib.error.HTTPError as error:',
    '    raise SystemExit(f"HTTP {error.code}: {error.read().decode()}")',
  ];
}

/** Python: a JSON answer read and printed. */
export function pyJsonAnswer(): string[] {
  return [...pyUrlopen(['result = json.load(response)']), 'print(json.dumps(result, indent=2, ensure_ascii=False))'];
}

/** Python: the answer's bytes as `into` and its media type as `content_type` (lower case, no parameters). */
export function pyReadTyped(into: string): string[] {
  return ['content_type = response.headers.get("Content-Type", "").split(";")[0].strip().lower()', `${into} = response.read()`];
}

/**
 * TypeScript: `response`, the recorded call with fetch: `method` when given, the key and the
 * repeated headers then `headers` (each a full line), the `body` lines; a non-2xx throws with its
 * status and body.
 */
export function tsFetch(request: CapturedRequest, opts: CodegenOptions, parts: { method?: string; headers?: string[]; body?: string[] } = {}): string[] {
  const { base, rest } = rootAndRest(request, opts);
  return [
    `const response = await fetch(${tsUrl(base, rest)}, {`,
    ...(parts.method ? [`  method: ${tsLiteral(parts.method)},`] : []),
    '  headers: {',
    ...tsHeaderLines(request, opts, '    '),
    ...(parts.headers ?? []),
    '  },',
    ...(parts.body ?? []),
    '});',
    'if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);',
  ];
}

/** TypeScript: the answer's media type, lower case, no parameters. */
export const TS_CONTENT_TYPE = '(response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()';

/** TypeScript: a JSON answer printed. */
export const TS_PRINT_JSON = 'console.log(JSON.stringify(await response.json(), null, 2));';

/** Python: the socket URL, the root from the environment turned into ws/wss. */
export function pyWsUrl(base: string, rest: string): string {
  return `re.sub(r"^http", "ws", (os.environ.get(${stringLiteral(BASE_URL_ENV)}) or ${stringLiteral(base)}).rstrip("/")) + ${stringLiteral(rest)}`;
}

/** TypeScript: the socket URL, the root from the environment turned into ws/wss. */
export function tsWsUrl(base: string, rest: string): string {
  return `(process.env[${stringLiteral(BASE_URL_ENV)}] || ${stringLiteral(base)}).replace(/\\/+$/, "").replace(/^http/, "ws") + ${stringLiteral(rest)}`;
}

/**
 * The comment block atop a socket snippet: what it connects to (ws/wss, as recorded or on the
 * connection), then the variables to set; the root it names is the http one `$WORKBENCH_BASE_URL`
 * takes, which the snippet turns into ws/wss.
 */
export function socketHeader(request: CapturedRequest, opts: CodegenOptions, comment: '#' | '//'): string[] {
  const { base, rest } = rootAndRest(request, opts);
  const [, ...rest2] = environmentHeader(asHttp(request), opts, comment);
  return [`${comment} WebSocket ${base.replace(/^http/i, 'ws')}${rest}`, ...rest2];
}

/** The file extension of audio by its Content-Type, as Python and TypeScript source (a dict / object literal). */
export const AUDIO_EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/pcm': 'pcm',
  'audio/l16': 'pcm',
  'audio/basic': 'ulaw',
  'audio/mulaw': 'ulaw',
  'audio/alaw': 'alaw',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
};

/** The file extension of a TTS codec (`output_format.codec` or the socket's `codec`; default mp3). */
export function codecExtension(codec: unknown): string {
  switch (typeof codec === 'string' ? codec.toLowerCase() : 'mp3') {
    case 'wav':
      return 'wav';
    case 'pcm':
      return 'pcm';
    case 'mulaw':
    case 'ulaw':
      return 'ulaw';
    case 'alaw':
      return 'alaw';
    default:
      return 'mp3';
  }
}

/** A value inside a `#` or `//` comment line: a line break would end the comment and run as code. */
export function inComment(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, ' ');
}

/** Joins snippet lines. */
export function lines(...parts: Array<string | string[]>): string {
  return parts.flat().join('\n');
}

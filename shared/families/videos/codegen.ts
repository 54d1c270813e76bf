/**
 * Code export for a recorded video create (`POST /v1/videos/generations|edits|extensions`): the
 * create, then the polling loop the service needs (GET /v1/videos/{request_id} every 5 s until
 * `done` or `failed`), then the MP4 downloaded from the result URL (without the key: it is a
 * signed link). Plain HTTP in every language: the openai SDK's `videos` resource is another API
 * (multipart bodies, other paths and shapes), so the SDK languages say so instead.
 *
 * The recorded `Idempotency-Key` is left out: sent again it would replay the recorded request
 * instead of making a new video.
 */
import type { CapturedRequest } from '../../contract/runs';
import type { CodeExporter } from '../types';
import { environmentHeader, pyUrl, secretHeaders, shellUrl, splitRequestUrl, tsUrl } from '../../codegen/environment';
import { pyLiteral, stringLiteral, tsLiteral } from '../../codegen/literals';
import { apiKeyEnv, bodyText, portableHeaders, type CodegenOptions } from '../../codegen/request-parts';
import { shellQuote } from '../../codegen/shell-quote';

/** Why the SDK languages have no snippet. */
export const VIDEO_SDK_GAP =
  "The openai SDK has no call for this service's video API (its videos resource is a different API): choose Python or TypeScript, which use plain HTTP.";

function headersOf(request: CapturedRequest): [string, string][] {
  return portableHeaders(request.headers).filter(([n]) => n.toLowerCase() !== 'idempotency-key');
}

/** `http://host/v1/videos/` — where the poll goes, from the create's URL. */
function pollRest(rest: string): string {
  return rest.replace(/\/videos\/(generations|edits|extensions)(\?.*)?$/, '/videos/');
}

export function videoCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const split = splitRequestUrl(request, opts);
  const auth = `-H "Authorization: Bearer $${env}"`;
  const create = [`curl -X POST ${shellUrl(split)} -sS`, auth];
  for (const [name, value] of headersOf(request)) create.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  for (const [name, envName] of secretHeaders(request.headers)) create.push(`-H "${name}: $${envName}"`);
  const body = bodyText(request.body);
  if (body !== null) create.push(`--data-raw ${shellQuote(body)}`);
  const pollUrl = shellUrl({ base: split.base, rest: pollRest(split.rest) }).replace(/"$/, '$request_id"');
  return [
    ...environmentHeader(request, opts, '#'),
    '# A bash script: create the video, poll every 5 s until it is done or failed, then download it.',
    'set -eu',
    `created=$(${create.join(' \\\n  ')})`,
    `request_id=$(printf '%s' "$created" | sed -n 's/.*"request_id" *: *"\\([^"]*\\)".*/\\1/p')`,
    '[ -n "$request_id" ] || { echo "No request_id: $created" >&2; exit 1; }',
    'echo "request_id: $request_id"',
    'while :; do',
    `  result=$(curl -sS ${pollUrl} ${auth})`,
    `  status=$(printf '%s' "$result" | sed -n 's/.*"status" *: *"\\([^"]*\\)".*/\\1/p')`,
    '  case "$status" in',
    '    done) break ;;',
    '    failed|expired) echo "$result" >&2; exit 1 ;;',
    `    *) echo "$status $(printf '%s' "$result" | sed -n 's/.*"progress" *: *\\([0-9]*\\).*/\\1/p')%" ;;`,
    '  esac',
    '  sleep 5',
    'done',
    `url=$(printf '%s' "$result" | sed -n 's/.*"url" *: *"\\([^"]*\\)".*/\\1/p')`,
    '[ -n "$url" ] || { echo "Done without a video (moderated?): $result" >&2; exit 1; }',
    '# The result URL is a signed link: no key needed, and it expires, so download at once.',
    'curl -sS -o video.mp4 "$url"',
    'echo "saved video.mp4"',
  ].join('\n');
}

export function videoPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { base, rest } = splitRequestUrl(request, opts);
  return [
    ...environmentHeader(request, opts, '#'),
    '# Standard library only: create the video, poll every 5 s until done or failed, download it.',
    'import json, os, time, urllib.error, urllib.request',
    '',
    'headers = {',
    `    "Authorization": "Bearer " + os.environ[${pyLiteral(env)}],`,
    ...headersOf(request).map(([n, v]) => `    ${pyLiteral(n)}: ${pyLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `    ${pyLiteral(n)}: os.environ.get(${pyLiteral(envName)}, ""),`),
    '}',
    `body = ${pyLiteral(request.body)}`,
    '',
    'def call(method, url, payload=None):',
    '    data = None if payload is None else json.dumps(payload).encode()',
    '    request = urllib.request.Request(url, data=data, headers=headers, method=method)',
    '    try:',
    '        with urllib.request.urlopen(request) as response:',
    '            return json.load(response)',
    '    except urllib.error.HTTPError as error:',
    '        raise SystemExit(f"HTTP {error.code}: {error.read().decode()}")',
    '',
    `request_id = call("POST", ${pyUrl(base, rest)}, body)["request_id"]`,
    'print("request_id:", request_id)',
    'while True:',
    `    result = call("GET", ${pyUrl(base, pollRest(rest))} + request_id)`,
    '    if result["status"] == "done":',
    '        break',
    '    if result["status"] in ("failed", "expired"):',
    '        raise SystemExit(json.dumps(result.get("error") or result))',
    '    print(result["status"], f"{result.get(\'progress\') or 0}%")',
    '    time.sleep(5)',
    'video = result.get("video") or {}',
    'if not video.get("url"):',
    '    raise SystemExit("Done without a video (moderated?): " + json.dumps(result))',
    '# The result URL is a signed link: no key needed, and it expires, so download at once.',
    'urllib.request.urlretrieve(video["url"], "video.mp4")',
    'print("saved video.mp4,", video.get("duration"), "s; cost (ticks):", (result.get("usage") or {}).get("cost_in_usd_ticks"))',
  ].join('\n');
}

export function videoTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { base, rest } = splitRequestUrl(request, opts);
  return [
    ...environmentHeader(request, opts, '//'),
    '// fetch (Node 18+): create the video, poll every 5 s until done or failed, download it. npx tsx snippet.mts',
    'import { writeFile } from "node:fs/promises";',
    '',
    'const headers: Record<string, string> = {',
    `  Authorization: \`Bearer \${process.env[${stringLiteral(env)}]}\`,`,
    '  "Content-Type": "application/json",',
    ...headersOf(request)
      .filter(([n]) => n.toLowerCase() !== 'content-type')
      .map(([n, v]) => `  ${stringLiteral(n)}: ${stringLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `  ${stringLiteral(n)}: process.env[${stringLiteral(envName)}] ?? "",`),
    '};',
    `const body = ${tsLiteral(request.body)};`,
    '',
    'async function call(method: string, url: string, payload?: unknown): Promise<any> {',
    '  const response = await fetch(url, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });',
    '  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);',
    '  return response.json();',
    '}',
    '',
    `const { request_id } = await call("POST", ${tsUrl(base, rest)}, body);`,
    'console.log("request_id:", request_id);',
    'let result: any;',
    'for (;;) {',
    `  result = await call("GET", ${tsUrl(base, pollRest(rest))} + request_id);`,
    '  if (result.status === "done") break;',
    '  if (result.status === "failed" || result.status === "expired") throw new Error(JSON.stringify(result.error ?? result));',
    '  console.log(result.status, `${result.progress ?? 0}%`);',
    '  await new Promise((resolve) => setTimeout(resolve, 5000));',
    '}',
    'const url = result.video?.url;',
    'if (!url) throw new Error(`Done without a video (moderated?): ${JSON.stringify(result)}`);',
    '// The result URL is a signed link: no key needed, and it expires, so download at once.',
    'const video = await fetch(url);',
    'if (!video.ok) throw new Error(`Download failed: HTTP ${video.status}`);',
    'await writeFile("video.mp4", new Uint8Array(await video.arrayBuffer()));',
    'console.log("saved video.mp4,", result.video.duration, "s; cost (ticks):", result.usage?.cost_in_usd_ticks);',
  ].join('\n');
}

/** The Videos family's code export: the create, the polling loop and the download, in plain HTTP. */
export const VIDEO_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: videoCurl(request, opts) }),
  python: (request, opts) => ({ code: videoPython(request, opts) }),
  typescript: (request, opts) => ({ code: videoTypeScript(request, opts) }),
  'python-sdk': () => ({ unsupported: VIDEO_SDK_GAP }),
  'typescript-sdk': () => ({ unsupported: VIDEO_SDK_GAP }),
};

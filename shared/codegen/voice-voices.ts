/**
 * Code export of the voice catalogue and custom voices (wire-notes 3.1, 6.1): the JSON calls
 * (`GET /v1/tts/voices[/{id}]`, `GET /v1/custom-voices[?limit&pagination_token]`, `GET`, `PATCH`
 * with a JSON body, `DELETE /v1/custom-voices/{id}`) print the answer as JSON; `GET
 * /v1/custom-voices/{id}/audio` writes the reference clip to a file named by its Content-Type. The
 * multipart create (`POST /v1/custom-voices`, the clip last) is voice-stt.ts's FORM_EXPORTER.
 */
import type { CapturedRequest } from '../contract/runs';
import type { CodeExporter } from '../families/types';
import { environmentHeader, pyUrl } from './environment';
import { pyLiteral, tsLiteral } from './literals';
import { bodyObject, type CodegenOptions } from './request-parts';
import { shellQuote } from './shell-quote';
import { AUDIO_EXTENSIONS, curlStart, lines, NO_VOICE_SDK, pyHeaders, pyJsonAnswer, pyReadTyped, pyUrlopen, rootAndRest, TS_CONTENT_TYPE, TS_PRINT_JSON, tsFetch } from './voice-common';
import { FORM_EXPORTER } from './voice-stt';

/** The JSON body a PATCH (or any call with one) sent; null for none. */
function jsonBody(request: CapturedRequest): Record<string, unknown> | null {
  return request.method.toUpperCase() === 'GET' || request.method.toUpperCase() === 'DELETE' ? null : bodyObject(request.body);
}

export function jsonCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const body = jsonBody(request);
  const parts = curlStart(request, opts, request.method.toUpperCase());
  if (body) parts.push('-H "Content-Type: application/json"', `-d ${shellQuote(JSON.stringify(body))}`);
  return lines(environmentHeader(request, opts, '#'), parts.join(' \\\n  '));
}

export function jsonPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const body = jsonBody(request);
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    environmentHeader(request, opts, '#'),
    '# Standard library only. python3 snippet.py',
    'import json, os, urllib.error, urllib.request',
    '',
    pyHeaders(request, opts, body ? ['    "Content-Type": "application/json",'] : []),
    ...(body ? [`body = json.dumps(${pyLiteral(body)}).encode()`] : ['body = None']),
    `request = urllib.request.Request(${pyUrl(base, rest)}, data=body, headers=headers, method=${pyLiteral(request.method.toUpperCase())})`,
    pyJsonAnswer(),
  );
}

export function jsonTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const body = jsonBody(request);
  return lines(
    environmentHeader(request, opts, '//'),
    '// fetch (Node 18+). npx tsx snippet.mts',
    tsFetch(request, opts, {
      method: request.method.toUpperCase(),
      headers: body ? ['    "Content-Type": "application/json",'] : [],
      body: body ? [`  body: JSON.stringify(${tsLiteral(body, '  ')}),`] : [],
    }),
    TS_PRINT_JSON,
  );
}

/** A JSON call whose answer is JSON: voices, custom voices list/get/PATCH/DELETE. */
export const VOICE_JSON_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: jsonCurl(request, opts) }),
  python: (request, opts) => ({ code: jsonPython(request, opts) }),
  typescript: (request, opts) => ({ code: jsonTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

export function audioCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const parts = curlStart(request, opts);
  parts.push('-D reference.headers -o reference.audio || { cat reference.audio >&2; echo >&2; exit 1; }');
  return lines(
    environmentHeader(request, opts, '#'),
    '# The reference clip, named by its Content-Type. sh snippet.sh',
    'set -e',
    parts.join(' \\\n  '),
    'case "$(grep -i \'^content-type:\' reference.headers | tail -n 1 | tr -d \'\\r\' | tr \'[:upper:]\' \'[:lower:]\')" in',
    '  *audio/wav*|*audio/x-wav*|*audio/wave*) ext=wav ;;',
    '  *audio/mpeg*) ext=mp3 ;;',
    '  *) ext=bin ;;',
    'esac',
    'mv reference.audio "reference.$ext" && rm -f reference.headers',
    'echo "saved reference.$ext"',
  );
}

export function audioPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    environmentHeader(request, opts, '#'),
    '# Standard library only: the reference clip, named by its Content-Type. python3 snippet.py',
    'import os, urllib.error, urllib.request',
    '',
    `EXTENSIONS = ${pyLiteral(AUDIO_EXTENSIONS)}`,
    pyHeaders(request, opts),
    `request = urllib.request.Request(${pyUrl(base, rest)}, headers=headers)`,
    pyUrlopen(pyReadTyped('audio')),
    'name = "reference." + EXTENSIONS.get(content_type, "bin")',
    'with open(name, "wb") as f:',
    '    f.write(audio)',
    'print("saved", name, len(audio), "bytes", content_type)',
  );
}

export function audioTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  return lines(
    environmentHeader(request, opts, '//'),
    '// fetch (Node 18+): the reference clip, named by its Content-Type. npx tsx snippet.mts',
    'import { writeFile } from "node:fs/promises";',
    '',
    `const EXTENSIONS: Record<string, string> = ${tsLiteral(AUDIO_EXTENSIONS)};`,
    tsFetch(request, opts),
    `const contentType = ${TS_CONTENT_TYPE};`,
    'const audio = Buffer.from(await response.arrayBuffer());',
    'const name = `reference.${EXTENSIONS[contentType] ?? "bin"}`;',
    'await writeFile(name, audio);',
    'console.log("saved", name, audio.length, "bytes", contentType);',
  );
}

/** `GET /v1/custom-voices/{id}/audio`: the reference clip to a file. */
export const VOICE_AUDIO_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: audioCurl(request, opts) }),
  python: (request, opts) => ({ code: audioPython(request, opts) }),
  typescript: (request, opts) => ({ code: audioTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

/** `POST /v1/custom-voices`: multipart, metadata fields then the clip last. */
export const VOICE_CREATE_EXPORTER: CodeExporter = FORM_EXPORTER;

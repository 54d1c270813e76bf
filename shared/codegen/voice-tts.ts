/**
 * Code export of a recorded `POST /v1/tts`: the JSON body as sent, then the audio written to a
 * file. The service answers the Text-to-speech result (JSON, base64 `audio`, wire-notes 3.1) or,
 * as the live service was seen to, the raw audio bytes: every snippet branches on Content-Type,
 * and names the file by the audio's type (speech.mp3, speech.wav, speech.pcm, …).
 */
import type { CapturedRequest } from '../contract/runs';
import type { CodeExporter } from '../families/types';
import { environmentHeader, pyUrl, shellUrl } from './environment';
import { pyLiteral, stringLiteral, tsLiteral } from './literals';
import { apiKeyEnv, bodyObject, type CodegenOptions } from './request-parts';
import { shellQuote } from './shell-quote';
import { AUDIO_EXTENSIONS, codecExtension, extraHeaders, lines, NO_VOICE_SDK, pyHeaders, pyReadTyped, pyUrlopen, rootAndRest, TS_CONTENT_TYPE, tsFetch } from './voice-common';

function sentBody(request: CapturedRequest): Record<string, unknown> {
  return bodyObject(request.body) ?? {};
}

/** The extension the recorded codec gives (the snippets prefer the answer's Content-Type). */
function recordedExtension(request: CapturedRequest): string {
  const format = sentBody(request).output_format;
  return codecExtension(typeof format === 'object' && format !== null ? (format as { codec?: unknown }).codec : undefined);
}

export function ttsCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const ext = recordedExtension(request);
  const command = [
    `curl -sS --fail-with-body -X POST ${shellUrl(rootAndRest(request, opts))}`,
    `-H "Authorization: Bearer $${env}"`,
    '-H "Content-Type: application/json"',
    ...extraHeaders(request).map(([n, v]) => `-H ${shellQuote(`${n}: ${v}`)}`),
    `-d ${shellQuote(JSON.stringify(sentBody(request)))}`,
    '-D speech.headers -o speech.body || { cat speech.body >&2; echo >&2; exit 1; }',
  ].join(' \\\n  ');
  return lines(
    environmentHeader(request, opts, '#'),
    '# The answer is JSON with base64 "audio" (the Text-to-speech result) or the audio bytes themselves:',
    '# the Content-Type tells which. sh snippet.sh',
    'set -e',
    command,
    "if grep -qi '^content-type: *application/json' speech.headers; then",
    `  sed -n 's/.*"audio" *: *"\\([^"]*\\)".*/\\1/p' speech.body | base64 -d > speech.${ext}`,
    "  sed -n 's/.*\"duration\" *: *\\([0-9.]*\\).*/duration: \\1 s/p' speech.body",
    'else',
    `  mv speech.body speech.${ext}`,
    'fi',
    `rm -f speech.headers speech.body`,
    `echo saved speech.${ext}`,
  );
}

export function ttsPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    environmentHeader(request, opts, '#'),
    '# Standard library only: send the text, write the audio to a file. python3 snippet.py',
    'import base64, json, os, urllib.error, urllib.request',
    '',
    `EXTENSIONS = ${pyLiteral(AUDIO_EXTENSIONS)}`,
    pyHeaders(request, opts, ['    "Content-Type": "application/json",']),
    `body = ${pyLiteral(sentBody(request))}`,
    `request = urllib.request.Request(${pyUrl(base, rest)}, data=json.dumps(body).encode(), headers=headers, method="POST")`,
    pyUrlopen(pyReadTyped('answer')),
    'duration = None',
    'if content_type == "application/json":',
    '    # The Text-to-speech result: base64 audio, its type and duration (and timestamps if asked).',
    '    result = json.loads(answer)',
    '    audio = base64.b64decode(result["audio"])',
    '    content_type = result.get("content_type", "")',
    '    duration = result.get("duration")',
    '    if result.get("audio_timestamps"):',
    '        print("characters timed:", len(result["audio_timestamps"]["graph_chars"]))',
    'else:',
    '    audio = answer  # the audio bytes themselves',
    `name = "speech." + EXTENSIONS.get(content_type, ${pyLiteral(recordedExtension(request))})`,
    'with open(name, "wb") as f:',
    '    f.write(audio)',
    'print("saved", name, len(audio), "bytes", content_type, "duration:", duration)',
  );
}

export function ttsTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  return lines(
    environmentHeader(request, opts, '//'),
    '// fetch (Node 18+): send the text, write the audio to a file. npx tsx snippet.mts',
    'import { writeFile } from "node:fs/promises";',
    '',
    `const EXTENSIONS: Record<string, string> = ${tsLiteral(AUDIO_EXTENSIONS)};`,
    tsFetch(request, opts, { method: 'POST', headers: ['    "Content-Type": "application/json",'], body: [`  body: JSON.stringify(${tsLiteral(sentBody(request), '  ')}),`] }),
    `let contentType = ${TS_CONTENT_TYPE};`,
    'let audio: Buffer;',
    'let duration: number | null = null;',
    'if (contentType === "application/json") {',
    '  // The Text-to-speech result: base64 audio, its type and duration (and timestamps if asked).',
    '  const result: any = await response.json();',
    '  audio = Buffer.from(result.audio, "base64");',
    '  contentType = result.content_type ?? "";',
    '  duration = result.duration ?? null;',
    '  if (result.audio_timestamps) console.log("characters timed:", result.audio_timestamps.graph_chars.length);',
    '} else {',
    '  audio = Buffer.from(await response.arrayBuffer()); // the audio bytes themselves',
    '}',
    `const name = \`speech.\${EXTENSIONS[contentType] ?? ${stringLiteral(recordedExtension(request))}}\`;`,
    'await writeFile(name, audio);',
    'console.log("saved", name, audio.length, "bytes", contentType, "duration:", duration);',
  );
}

/** `POST /v1/tts`: curl, Python and TypeScript (no SDK has a speech method of this shape). */
export const TTS_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: ttsCurl(request, opts) }),
  python: (request, opts) => ({ code: ttsPython(request, opts) }),
  typescript: (request, opts) => ({ code: ttsTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

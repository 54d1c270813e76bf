/**
 * Code export of a recorded streaming speech session (WebSocket `/v1/tts`, wire-notes 3.2): open
 * the socket with the recorded query, send the text as `text.delta` chunks then `text.done`, and
 * write every `audio.delta` to a file until `audio.done`. A socket run is recorded as `GET ws://…`
 * with no body; the text comes from the body when the recorder put it there (see socketText), else
 * the snippet says where to put it. Python uses the `websockets` package (pip install websockets),
 * TypeScript the `ws` package (npm install ws): neither language's standard library speaks WebSocket
 * in a form a short snippet can use.
 */
import type { CapturedRequest } from '../contract/runs';
import type { CodeExporter } from '../families/types';
import { pyLiteral, tsLiteral } from './literals';
import type { CodegenOptions } from './request-parts';
import { codecExtension, lines, NO_VOICE_SDK, pyHeaderLines, pyWsUrl, queryOf, rootAndRest, socketHeader, tsHeaderLines, tsWsUrl, withSocketQuery } from './voice-common';

/** What the text is when the recording does not carry it. */
const PLACEHOLDER = 'Put the text to speak here.';

/**
 * The text chunks the session sent. The recorded body may be `{ messages: [...] }` (the client's
 * JSON messages in order), `{ text }` or `{ deltas: [...] }`; the `text.delta` chunks are kept
 * as they were sent, so the service hears the same stream.
 */
export function socketTextChunks(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [PLACEHOLDER];
  const b = body as { messages?: unknown; text?: unknown; deltas?: unknown };
  if (Array.isArray(b.messages)) {
    const deltas = b.messages
      .filter((m): m is { type: string; delta: string } => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'text.delta' && typeof (m as { delta?: unknown }).delta === 'string')
      .map((m) => m.delta);
    if (deltas.length > 0) return deltas;
  }
  if (Array.isArray(b.deltas) && b.deltas.every((d) => typeof d === 'string') && b.deltas.length > 0) return b.deltas as string[];
  if (typeof b.text === 'string' && b.text.length > 0) return [b.text];
  return [PLACEHOLDER];
}

function extension(request: CapturedRequest): string {
  return codecExtension(queryOf(request).find(([k]) => k === 'codec')?.[1]);
}

export function ttsSocketPython(recorded: CapturedRequest, opts: CodegenOptions = {}): string {
  const request = withSocketQuery(recorded);
  const { base, rest } = rootAndRest(request, opts);
  const name = `speech.${extension(request)}`;
  return lines(
    socketHeader(request, opts, '#'),
    '# Streaming speech over the WebSocket: send the text in chunks, write each audio chunk as it comes.',
    '# pip install websockets  (version 13 or later), then: python3 snippet.py',
    'import base64, json, os, re',
    'from websockets.sync.client import connect',
    '',
    `url = ${pyWsUrl(base, rest)}`,
    'headers = {',
    pyHeaderLines(request, opts),
    '}',
    `chunks = ${pyLiteral(socketTextChunks(request.body))}`,
    'received = 0',
    `with connect(url, additional_headers=headers, max_size=None) as ws, open(${pyLiteral(name)}, "wb") as out:`,
    '    for chunk in chunks:',
    '        ws.send(json.dumps({"type": "text.delta", "delta": chunk}))',
    '    ws.send(json.dumps({"type": "text.done"}))',
    '    while True:',
    '        message = json.loads(ws.recv())',
    '        if message["type"] == "audio.delta":',
    '            audio = base64.b64decode(message["delta"])',
    '            out.write(audio)',
    '            received += len(audio)',
    '        elif message["type"] == "audio.done":',
    '            print("audio.done", message.get("trace_id", ""))',
    '            break',
    '        elif message["type"] == "error":',
    '            raise SystemExit("error: " + (message.get("message") or str(message.get("error"))))',
    `print("saved", ${pyLiteral(name)}, received, "bytes")`,
  );
}

export function ttsSocketTypeScript(recorded: CapturedRequest, opts: CodegenOptions = {}): string {
  const request = withSocketQuery(recorded);
  const { base, rest } = rootAndRest(request, opts);
  const name = `speech.${extension(request)}`;
  return lines(
    socketHeader(request, opts, '//'),
    '// Streaming speech over the WebSocket: send the text in chunks, write each audio chunk as it comes.',
    '// npm install ws, then: npx tsx snippet.mts',
    'import { createWriteStream } from "node:fs";',
    'import { WebSocket } from "ws";',
    '',
    `const url = ${tsWsUrl(base, rest)};`,
    'const ws = new WebSocket(url, {',
    '  headers: {',
    tsHeaderLines(request, opts, '    '),
    '  },',
    '});',
    `const chunks: string[] = ${tsLiteral(socketTextChunks(request.body))};`,
    `const out = createWriteStream(${tsLiteral(name)});`,
    'let received = 0;',
    'await new Promise<void>((resolve, reject) => {',
    '  ws.on("open", () => {',
    '    for (const chunk of chunks) ws.send(JSON.stringify({ type: "text.delta", delta: chunk }));',
    '    ws.send(JSON.stringify({ type: "text.done" }));',
    '  });',
    '  ws.on("message", (data) => {',
    '    const message = JSON.parse(String(data));',
    '    if (message.type === "audio.delta") {',
    '      const audio = Buffer.from(message.delta, "base64");',
    '      out.write(audio);',
    '      received += audio.length;',
    '    } else if (message.type === "audio.done") {',
    '      console.log("audio.done", message.trace_id ?? "");',
    '      ws.close();',
    '      resolve();',
    '    } else if (message.type === "error") {',
    '      reject(new Error(`error: ${message.message ?? message.error}`));',
    '    }',
    '  });',
    '  ws.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode} on the upgrade`)));',
    '  ws.on("error", reject);',
    '  ws.on("close", (code, reason) => reject(new Error(`closed ${code} ${reason} before audio.done`)));',
    '});',
    'await new Promise<void>((resolve) => out.end(resolve));',
    `console.log("saved", ${tsLiteral(name)}, received, "bytes");`,
  );
}

/** WebSocket `/v1/tts`: Python (websockets) and TypeScript (ws); curl cannot hold a socket. */
export const TTS_SOCKET_EXPORTER: CodeExporter = {
  curl: () => ({ unsupported: 'curl cannot hold a WebSocket conversation: choose Python or TypeScript.' }),
  python: (request, opts) => ({ code: ttsSocketPython(request, opts) }),
  typescript: (request, opts) => ({ code: ttsSocketTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

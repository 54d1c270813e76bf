/**
 * "Copy as TypeScript": the recorded request with fetch (Node 18+), key from the environment.
 * Prints the answer's text; a streamed request prints deltas as they arrive (SSE parsed by hand);
 * with `toolLoop` it runs stubbed tools until the model answers in words.
 */
import type { CapturedRequest } from '../contract/runs';
import { endpointKind } from './endpoint';
import { stringLiteral, tsLiteral } from './literals';
import { environmentHeader, secretHeaders, splitRequestUrl, tsUrl } from './environment';
import { apiKeyEnv, bodyText, isStreaming, portableHeaders, type CodegenOptions } from './request-parts';
import { loopBody, toolNames, wantsToolLoop } from './tool-loop';
import { tsDeltaExpression, tsOutputTextFunction } from './ts-readers';
import { tsToolStubs, tsToolTurns } from './ts-tool-loop';

export interface ProgramOptions extends CodegenOptions {
  /** Run the tools the answer asks for and send results back (only when the body has tools). */
  toolLoop?: boolean;
}

/** `const url`, `const headers` and `const body` for the request. */
function preamble(request: CapturedRequest, opts: CodegenOptions, env: string, body: unknown): string[] {
  const { base, rest } = splitRequestUrl(request, opts);
  const lines = [`const url = ${tsUrl(base, rest)};`, 'const headers = {'];
  lines.push(`  Authorization: \`Bearer \${process.env[${stringLiteral(env)}]}\`,`);
  for (const [name, value] of portableHeaders(request.headers)) lines.push(`  ${stringLiteral(name)}: ${stringLiteral(value)},`);
  for (const [name, envName] of secretHeaders(request.headers)) lines.push(`  ${stringLiteral(name)}: process.env[${stringLiteral(envName)}] ?? "",`);
  lines.push('};');
  if (bodyText(body) !== null) lines.push(`const body = ${typeof body === 'string' ? stringLiteral(body) : tsLiteral(body)};`);
  return lines;
}

function fetchCall(request: CapturedRequest, bodyExpr: string | null): string {
  const payload = bodyExpr === null ? '' : `, body: ${bodyExpr}`;
  return `await fetch(url, { method: ${stringLiteral(request.method.toUpperCase())}, headers${payload} })`;
}

const FAIL = '  throw new Error(`HTTP ${response.status}: ${await response.text()}`);';

function streamLines(kind: ReturnType<typeof endpointKind>): string[] {
  return [
    'if (!response.ok || !response.body) {',
    FAIL,
    '}',
    '// Server-sent events: frames end with a blank line; each "data:" line holds one JSON event.',
    'const decoder = new TextDecoder();',
    'let buffer = "";',
    'read: for await (const chunk of response.body as any) {',
    '  buffer = (buffer + decoder.decode(chunk, { stream: true })).replace(/\\r\\n/g, "\\n");',
    '  let end: number;',
    '  while ((end = buffer.indexOf("\\n\\n")) >= 0) {',
    '    const frame = buffer.slice(0, end);',
    '    buffer = buffer.slice(end + 2);',
    '    for (const line of frame.split("\\n")) {',
    '      if (!line.startsWith("data:")) continue;',
    '      const data = line.slice(5).trim();',
    '      if (data === "[DONE]") break read;',
    '      const event = JSON.parse(data);',
    '      if (event.type === "error") throw new Error(JSON.stringify(event.error ?? event));',
    `      const text = ${tsDeltaExpression(kind)};`,
    '      if (text) process.stdout.write(text);',
    '    }',
    '  }',
    '}',
    'process.stdout.write("\\n");',
  ];
}

/** A runnable Node TypeScript program for the request; URL and key from the environment. */
export function toTypeScript(request: CapturedRequest, opts: ProgramOptions = {}): string {
  const env = apiKeyEnv(opts);
  const kind = endpointKind(request.method, request.url);
  const loop = wantsToolLoop(opts, kind, request.body);
  const body = loop ? loopBody(request.body) : request.body;
  const hasBody = bodyText(body) !== null;
  const bodyExpr = !hasBody ? null : typeof body === 'string' ? 'body' : 'JSON.stringify(body)';
  const lines = [...environmentHeader(request, opts, '//'), '// Run: npx tsx snippet.mts', ''];
  lines.push(...preamble(request, opts, env, body), '');
  if (loop) {
    lines.push('async function send(payload: unknown): Promise<any> {');
    lines.push(`  const response = ${fetchCall(request, 'JSON.stringify(payload)')};`);
    lines.push('  if (!response.ok) {', `  ${FAIL}`, '  }', '  return response.json();', '}', '');
    lines.push(...tsOutputTextFunction(kind), '', ...tsToolStubs(toolNames(kind, body)), '', ...tsToolTurns(kind));
    return lines.join('\n');
  }
  lines.push(`const response = ${fetchCall(request, bodyExpr)};`);
  if (isStreaming(request.body)) return [...lines, ...streamLines(kind)].join('\n');
  lines.push('if (!response.ok) {', FAIL, '}');
  lines.push('const text = await response.text();');
  lines.push('const data: any = text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text;');
  lines.push('', ...tsOutputTextFunction(kind), '', 'console.log(outputText(data));');
  return lines.join('\n');
}

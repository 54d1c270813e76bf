/**
 * "Copy as Python": the recorded request with the standard library only (urllib), so it runs on
 * any Python 3; key from the environment. Prints the answer's text; a streamed request prints
 * deltas as they arrive; with `toolLoop` it runs stubbed tools until the model answers in words.
 */
import type { CapturedRequest } from '../contract/runs';
import { endpointKind } from './endpoint';
import { pyLiteral, stringLiteral } from './literals';
import { pyDeltaExpression, pyOutputTextFunction } from './py-readers';
import { pyToolStubs, pyToolTurns } from './py-tool-loop';
import { environmentHeader, pyUrl, secretHeaders, splitRequestUrl } from './environment';
import { apiKeyEnv, bodyText, isStreaming, portableHeaders } from './request-parts';
import { loopBody, toolNames, wantsToolLoop } from './tool-loop';
import type { ProgramOptions } from './typescript';

function opener(method: string): string[] {
  return [
    'def open_request(payload):',
    '    """Sends the request; an HTTP error stops the script with the service\'s message."""',
    '    data = None if payload is None else (payload if isinstance(payload, str) else json.dumps(payload)).encode()',
    `    request = urllib.request.Request(url, data=data, headers=headers, method=${stringLiteral(method.toUpperCase())})`,
    '    try:',
    '        return urllib.request.urlopen(request)',
    '    except urllib.error.HTTPError as error:',
    '        raise SystemExit(f"HTTP {error.code}: {error.read().decode()}")',
  ];
}

function streamLines(kind: ReturnType<typeof endpointKind>): string[] {
  return [
    'with open_request(body) as response:',
    '    # Server-sent events: each "data:" line holds one JSON event.',
    '    for raw in response:',
    '        line = raw.decode().strip()',
    '        if not line.startswith("data:"):',
    '            continue',
    '        payload = line[5:].strip()',
    '        if payload == "[DONE]":',
    '            break',
    '        event = json.loads(payload)',
    '        if event.get("type") == "error":',
    '            raise SystemExit(json.dumps(event.get("error", event)))',
    `        text = ${pyDeltaExpression(kind)}`,
    '        if text:',
    '            print(text, end="", flush=True)',
    'print()',
  ];
}

/** A runnable Python 3 script (standard library only) that repeats the request; URL and key from the environment. */
export function toPython(request: CapturedRequest, opts: ProgramOptions = {}): string {
  const env = apiKeyEnv(opts);
  const kind = endpointKind(request.method, request.url);
  const loop = wantsToolLoop(opts, kind, request.body);
  const body = loop ? loopBody(request.body) : request.body;
  const { base, rest } = splitRequestUrl(request, opts);
  const lines = [...environmentHeader(request, opts, '#'), '# Run: python3 snippet.py'];
  lines.push('import json', 'import os', 'import urllib.error', 'import urllib.request', '');
  lines.push(`url = ${pyUrl(base, rest)}`, 'headers = {');
  lines.push(`    "Authorization": "Bearer " + os.environ[${stringLiteral(env)}],`);
  for (const [name, value] of portableHeaders(request.headers)) lines.push(`    ${stringLiteral(name)}: ${stringLiteral(value)},`);
  for (const [name, envName] of secretHeaders(request.headers)) lines.push(`    ${stringLiteral(name)}: os.environ[${stringLiteral(envName)}],`);
  lines.push('}');
  lines.push(`body = ${bodyText(body) === null ? 'None' : pyLiteral(body)}`, '', '');
  lines.push(...opener(request.method), '', '');
  if (loop) {
    lines.push('def send(payload):', '    with open_request(payload) as response:', '        return json.load(response)', '', '');
    lines.push(...pyOutputTextFunction(kind), '', '', ...pyToolStubs(toolNames(kind, body)), '', '', ...pyToolTurns(kind));
    return lines.join('\n');
  }
  if (isStreaming(request.body)) return [...lines, ...streamLines(kind)].join('\n');
  lines.push(...pyOutputTextFunction(kind), '', '');
  lines.push('with open_request(body) as response:', '    text = response.read().decode()');
  lines.push('data = json.loads(text) if text[:1] in ("{", "[") else text', 'print(output_text(data))');
  return lines.join('\n');
}

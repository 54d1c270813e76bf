/** "Copy as Python": the recorded request with `requests`, key from the environment. */
import type { CapturedRequest } from '../contract/runs';
import { API_KEY_ENV, portableHeaders, type CodegenOptions } from './curl';

/** A Python string literal (JSON's escaping is valid Python for any string). */
function pyString(value: string): string {
  return JSON.stringify(value);
}

/** A runnable Python script that repeats the request, reading the key from `$WORKBENCH_API_KEY`. */
export function toPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = opts.apiKeyEnv ?? API_KEY_ENV;
  const headers = portableHeaders(request.headers).filter(([n]) => n.toLowerCase() !== 'content-type');
  const lines = ['import json', 'import os', '', 'import requests', ''];
  lines.push('headers = {');
  lines.push(`    "Authorization": "Bearer " + os.environ[${pyString(env)}],`);
  for (const [name, value] of headers) lines.push(`    ${pyString(name)}: ${pyString(value)},`);
  lines.push('}');
  const hasBody = request.body !== undefined && request.body !== null;
  if (hasBody) {
    const json = typeof request.body === 'string' ? request.body : JSON.stringify(request.body, null, 4);
    lines.push(`body = json.loads(${pyString(json)})`);
  }
  lines.push('');
  lines.push(
    `response = requests.request(${pyString(request.method.toUpperCase())}, ${pyString(request.url)}, headers=headers${hasBody ? ', json=body' : ''})`,
  );
  lines.push('print(response.status_code)');
  lines.push('print(response.text)');
  return lines.join('\n');
}

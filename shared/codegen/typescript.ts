/** "Copy as TypeScript": the recorded request with fetch, key from the environment. */
import type { CapturedRequest } from '../contract/runs';
import { API_KEY_ENV, bodyText, portableHeaders, type CodegenOptions } from './curl';

/** A Node (18+) TypeScript snippet that repeats the request, reading the key from `$WORKBENCH_API_KEY`. */
export function toTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = opts.apiKeyEnv ?? API_KEY_ENV;
  const lines = [`const response = await fetch(${JSON.stringify(request.url)}, {`];
  lines.push(`  method: ${JSON.stringify(request.method.toUpperCase())},`);
  lines.push('  headers: {');
  lines.push(`    Authorization: \`Bearer \${process.env[${JSON.stringify(env)}]}\`,`);
  for (const [name, value] of portableHeaders(request.headers)) {
    lines.push(`    ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
  }
  lines.push('  },');
  const body = bodyText(request.body);
  if (body !== null) {
    const literal = typeof request.body === 'string' ? JSON.stringify(body) : `JSON.stringify(${JSON.stringify(request.body, null, 2).replace(/\n/g, '\n  ')})`;
    lines.push(`  body: ${literal},`);
  }
  lines.push('});');
  lines.push('console.log(response.status, await response.text());');
  return lines.join('\n');
}

/**
 * Code export for a recorded upload (`POST /v1/files`, body recorded as a multipart description,
 * shared/contract/files.ts): curl `-F`, Python with the standard library and with the official
 * SDK (`client.files.create`), TypeScript with fetch + FormData and with the official SDK's
 * `files.create`. The file is read from the current folder under its recorded name (the app
 * never records where it was on disk); `expires_after` is sent before the file, as the service
 * requires. The URL comes from `$WORKBENCH_BASE_URL` (default the connection's), the key from
 * `$WORKBENCH_API_KEY`, as in every snippet (environment.ts).
 */
import { multipartOf, type MultipartDescription, type MultipartPart } from '../../contract/multipart';
import type { CapturedRequest } from '../../contract/runs';
import type { CodeExporter } from '../types';
import { environmentHeader, pyUrl, shellUrl, splitRequestUrl, tsUrl } from '../../codegen/environment';
import { pyLiteral, stringLiteral } from '../../codegen/literals';
import { apiKeyEnv, portableHeaders, sdkHeaders, type CodegenOptions } from '../../codegen/request-parts';
import { shellQuote } from '../../codegen/shell-quote';

type FilePart = Extract<MultipartPart, { filename: string }>;
type FieldPart = Extract<MultipartPart, { value: string }>;

/** True when the request is a recorded upload. */
export function isUpload(request: CapturedRequest): boolean {
  return multipartOf(request.body) !== null;
}

function parts(request: CapturedRequest): { fields: FieldPart[]; file: FilePart } {
  const described = multipartOf(request.body) as MultipartDescription;
  const file = described.multipart.find((p): p is FilePart => 'filename' in p);
  if (!file) throw new Error('The recorded upload has no file part.');
  return { fields: described.multipart.filter((p): p is FieldPart => 'value' in p), file };
}

/** Headers other than the multipart framing the tools set themselves. */
function extraHeaders(request: CapturedRequest, sdk: boolean): [string, string][] {
  return (sdk ? sdkHeaders(request.headers) : portableHeaders(request.headers)).filter(([n]) => !/^(content-type|accept)$/i.test(n));
}

/** A name inside a `#` or `//` comment line: a CR or LF in it would end the comment and run as code. */
function inComment(name: string): string {
  return name.replace(/[\r\n\u2028\u2029]/g, ' ');
}

function expiresAfterOf(fields: FieldPart[]): number | null {
  const field = fields.find((f) => f.name === 'expires_after');
  return field && /^\d+$/.test(field.value) ? Number(field.value) : null;
}

export function uploadCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { fields, file } = parts(request);
  const lines = [`curl -X POST ${shellUrl(splitRequestUrl(request, opts))} -sS`, `-H "Authorization: Bearer $${env}"`];
  for (const [name, value] of extraHeaders(request, false)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  // --form-string: a value starting with @ or < is sent as text, never read from a file.
  for (const f of fields) lines.push(`--form-string ${shellQuote(`${f.name}=${f.value}`)}`);
  // The path in double quotes (backslash escapes inside): unquoted, curl splits a name at `;` or
  // `,` and fails. curl sends the name as browsers do (`"` as %22, CR/LF as %0D/%0A).
  const path = `"${file.filename.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  lines.push(`-F ${shellQuote(`${file.name}=@${path};type=${file.contentType}`)}`);
  return [...environmentHeader(request, opts, '#'), `# Run in the folder holding ${inComment(file.filename)}`, lines.join(' \\\n  ')].join('\n');
}

export function uploadPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { fields, file } = parts(request);
  return [
    ...environmentHeader(request, opts, '#'),
    `# Multipart, standard library only. Run in the folder holding ${inComment(file.filename)}: python3 snippet.py`,
    'import json, os, urllib.request, uuid',
    '',
    `fields = ${pyLiteral(fields.map((f) => [f.name, f.value]))}`,
    `path = ${pyLiteral(file.filename)}`,
    'boundary = uuid.uuid4().hex',
    'body = b""',
    'for name, value in fields:  # expires_after must come before the file',
    '    body += f"--{boundary}\\r\\nContent-Disposition: form-data; name=\\"{name}\\"\\r\\n\\r\\n{value}\\r\\n".encode()',
    '# The name as browsers send it: a quote, CR and LF percent-encoded inside the quoted header value.',
    'filename = os.path.basename(path).replace(\'"\', "%22").replace("\\r", "%0D").replace("\\n", "%0A")',
    'with open(path, "rb") as f:',
    `    body += f"--{boundary}\\r\\nContent-Disposition: form-data; name=\\"${file.name}\\"; filename=\\"{filename}\\"\\r\\nContent-Type: ${file.contentType}\\r\\n\\r\\n".encode() + f.read() + b"\\r\\n"`,
    'body += f"--{boundary}--\\r\\n".encode()',
    'headers = {',
    `    "Authorization": "Bearer " + os.environ[${pyLiteral(env)}],`,
    '    "Content-Type": f"multipart/form-data; boundary={boundary}",',
    ...extraHeaders(request, false).map(([n, v]) => `    ${pyLiteral(n)}: ${pyLiteral(v)},`),
    '}',
    `url = ${pyUrl(splitRequestUrl(request, opts).base, splitRequestUrl(request, opts).rest)}`,
    'req = urllib.request.Request(url, data=body, headers=headers, method="POST")',
    'with urllib.request.urlopen(req) as res:',
    '    file = json.load(res)',
    'print(file["id"], file["filename"], file["bytes"])',
  ].join('\n');
}

export function uploadPythonSdk(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { fields, file } = parts(request);
  const expires = expiresAfterOf(fields);
  const headers = extraHeaders(request, true);
  return [
    ...environmentHeader(request, opts, '#'),
    `# With the official SDK (pip install openai). Run in the folder holding ${inComment(file.filename)}: python3 snippet.py`,
    'import os',
    'from openai import OpenAI',
    '',
    'client = OpenAI(',
    `    api_key=os.environ[${pyLiteral(env)}],`,
    `    base_url=${pyUrl(splitRequestUrl(request, opts).base, '/v1')},`,
    ...(headers.length ? [`    default_headers={${headers.map(([n, v]) => `${pyLiteral(n)}: ${pyLiteral(v)}`).join(', ')}},`] : []),
    ')',
    `with open(${pyLiteral(file.filename)}, "rb") as f:`,
    '    file = client.files.create(',
    ...(expires !== null ? [`        expires_after={"anchor": "created_at", "seconds": ${expires}},`] : []),
    '        file=f,',
    '        purpose="assistants",',
    '    )',
    'print(file.id, file.filename, file.bytes)',
  ].join('\n');
}

export function uploadTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { fields, file } = parts(request);
  return [
    ...environmentHeader(request, opts, '//'),
    `// Multipart with fetch and FormData (Node 20+). Run in the folder holding ${inComment(file.filename)}: npx tsx snippet.mts`,
    'import { openAsBlob } from "node:fs";',
    '',
    'const form = new FormData();',
    '// expires_after must come before the file.',
    ...fields.map((f) => `form.append(${stringLiteral(f.name)}, ${stringLiteral(f.value)});`),
    `form.append(${stringLiteral(file.name)}, await openAsBlob(${stringLiteral(file.filename)}, { type: ${stringLiteral(file.contentType)} }), ${stringLiteral(file.filename)});`,
    `const url = ${tsUrl(splitRequestUrl(request, opts).base, splitRequestUrl(request, opts).rest)};`,
    'const res = await fetch(url, {',
    '  method: "POST",',
    '  headers: {',
    `    Authorization: \`Bearer \${process.env[${stringLiteral(env)}]}\`,`,
    ...extraHeaders(request, false).map(([n, v]) => `    ${stringLiteral(n)}: ${stringLiteral(v)},`),
    '  },',
    '  body: form,',
    '});',
    'if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);',
    'const file = await res.json();',
    'console.log(file.id, file.filename, file.bytes);',
  ].join('\n');
}

export function uploadTypeScriptSdk(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { fields, file } = parts(request);
  const expires = expiresAfterOf(fields);
  const headers = extraHeaders(request, true);
  return [
    ...environmentHeader(request, opts, '//'),
    `// With the official SDK (npm install openai). Run in the folder holding ${inComment(file.filename)}: npx tsx snippet.mts`,
    'import fs from "node:fs";',
    'import OpenAI from "openai";',
    '',
    'const client = new OpenAI({',
    `  apiKey: process.env[${stringLiteral(env)}],`,
    `  baseURL: ${tsUrl(splitRequestUrl(request, opts).base, '/v1')},`,
    ...(headers.length ? ['  defaultHeaders: {', ...headers.map(([n, v]) => `    ${stringLiteral(n)}: ${stringLiteral(v)},`), '  },'] : []),
    '});',
    '',
    '// The form is sent in this order: expires_after must come before the file.',
    'const file = await client.files.create({',
    ...(expires !== null ? [`  expires_after: { anchor: "created_at", seconds: ${expires} },`] : []),
    `  file: fs.createReadStream(${stringLiteral(file.filename)}),`,
    '  purpose: "assistants",',
    '});',
    'console.log(file.id, file.filename, file.bytes);',
  ].join('\n');
}

/** The Files family's code export of an upload (multipart described): every language has one. */
export const UPLOAD_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: uploadCurl(request, opts) }),
  python: (request, opts) => ({ code: uploadPython(request, opts) }),
  'python-sdk': (request, opts) => ({ code: uploadPythonSdk(request, opts) }),
  typescript: (request, opts) => ({ code: uploadTypeScript(request, opts) }),
  'typescript-sdk': (request, opts) => ({ code: uploadTypeScriptSdk(request, opts) }),
};

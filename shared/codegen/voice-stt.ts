/**
 * Code export of a recorded `POST /v1/stt` (wire-notes 4.1): multipart with the form fields as
 * recorded (repeated `keyterm` kept) and the audio `file` LAST, as the service requires, or a
 * `url` field instead of a file. The file is read from the current folder under its recorded name
 * (the app never records where it was on disk). Each snippet prints the Speech-to-text result as
 * JSON. Also the multipart create of a custom voice (`POST /v1/custom-voices`), which has the
 * same shape: fields, then the reference clip last.
 */
import { multipartOf, type MultipartPart } from '../contract/multipart';
import type { CapturedRequest } from '../contract/runs';
import type { CodeExporter } from '../families/types';
import { environmentHeader, pyUrl } from './environment';
import { pyLiteral, stringLiteral } from './literals';
import type { CodegenOptions } from './request-parts';
import { shellQuote } from './shell-quote';
import { curlStart, inComment, lines, NO_VOICE_SDK, pyHeaders, pyJsonAnswer, rootAndRest, TS_PRINT_JSON, tsFetch } from './voice-common';

type FilePart = Extract<MultipartPart, { filename: string }>;
type FieldPart = Extract<MultipartPart, { value: string }>;

/** The recorded form: its text fields in order and the file part, if one was sent. */
export function formOf(request: CapturedRequest): { fields: FieldPart[]; file: FilePart | null } {
  const parts = multipartOf(request.body)?.multipart ?? [];
  return {
    fields: parts.filter((p): p is FieldPart => 'value' in p),
    file: parts.find((p): p is FilePart => 'filename' in p) ?? null,
  };
}

function runIn(file: FilePart | null): string {
  return file ? `Run in the folder holding ${inComment(file.filename)}` : 'Run anywhere';
}

export function formCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const { fields, file } = formOf(request);
  const parts = curlStart(request, opts, 'POST');
  // --form-string: a value starting with @ or < is sent as text, never read from a file.
  for (const f of fields) parts.push(`--form-string ${shellQuote(`${f.name}=${f.value}`)}`);
  // The file last (the service requires it), its path double-quoted so `;` or `,` stay in the name.
  if (file) parts.push(`-F ${shellQuote(`${file.name}=@"${file.filename.replace(/[\\"]/g, (c) => `\\${c}`)}";type=${file.contentType}`)}`);
  return lines(environmentHeader(request, opts, '#'), `# Multipart, the file last. ${runIn(file)}: sh snippet.sh`, parts.join(' \\\n  '));
}

export function formPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const { fields, file } = formOf(request);
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    environmentHeader(request, opts, '#'),
    `# Multipart, standard library only, the file last. ${runIn(file)}: python3 snippet.py`,
    'import json, os, urllib.error, urllib.request, uuid',
    '',
    `fields = ${pyLiteral(fields.map((f) => [f.name, f.value]))}`,
    'boundary = uuid.uuid4().hex',
    'body = b""',
    'for name, value in fields:',
    '    body += f"--{boundary}\\r\\nContent-Disposition: form-data; name=\\"{name}\\"\\r\\n\\r\\n{value}\\r\\n".encode()',
    ...(file
      ? [
          `path = ${pyLiteral(file.filename)}`,
          '# The name as browsers send it: a quote, CR and LF percent-encoded inside the quoted header value.',
          'filename = os.path.basename(path).replace(\'"\', "%22").replace("\\r", "%0D").replace("\\n", "%0A")',
          'with open(path, "rb") as f:',
          `    body += f"--{boundary}\\r\\nContent-Disposition: form-data; name=\\"${file.name}\\"; filename=\\"{filename}\\"\\r\\nContent-Type: ${file.contentType}\\r\\n\\r\\n".encode() + f.read() + b"\\r\\n"`,
        ]
      : []),
    'body += f"--{boundary}--\\r\\n".encode()',
    pyHeaders(request, opts, ['    "Content-Type": f"multipart/form-data; boundary={boundary}",']),
    `request = urllib.request.Request(${pyUrl(base, rest)}, data=body, headers=headers, method="POST")`,
    pyJsonAnswer(),
  );
}

export function formTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const { fields, file } = formOf(request);
  return lines(
    environmentHeader(request, opts, '//'),
    `// Multipart with fetch and FormData (Node 20+), the file last. ${runIn(file)}: npx tsx snippet.mts`,
    ...(file ? ['import { openAsBlob } from "node:fs";'] : []),
    '',
    'const form = new FormData();',
    ...fields.map((f) => `form.append(${stringLiteral(f.name)}, ${stringLiteral(f.value)});`),
    ...(file ? [`form.append(${stringLiteral(file.name)}, await openAsBlob(${stringLiteral(file.filename)}, { type: ${stringLiteral(file.contentType)} }), ${stringLiteral(file.filename)});`] : []),
    tsFetch(request, opts, { method: 'POST', body: ['  body: form,'] }),
    TS_PRINT_JSON,
  );
}

/**
 * A multipart request whose answer is JSON: `POST /v1/stt` (the transcript) and
 * `POST /v1/custom-voices` (the voice created).
 */
export const FORM_EXPORTER: CodeExporter = {
  curl: (request, opts) => ({ code: formCurl(request, opts) }),
  python: (request, opts) => ({ code: formPython(request, opts) }),
  typescript: (request, opts) => ({ code: formTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

/** `POST /v1/stt`. */
export const STT_EXPORTER: CodeExporter = FORM_EXPORTER;

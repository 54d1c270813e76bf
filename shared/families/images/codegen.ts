/**
 * Code export for a recorded image request (`POST /v1/images/generations` or `/edits`): the JSON
 * body as it was sent, then every answered image saved at once (a `url` expires and needs no key;
 * `b64_json` is decoded). curl sends the request; Python and TypeScript do it all with plain HTTP
 * or with the openai SDK. The SDK's `images.generate()` takes the body (the service's own fields,
 * `aspect_ratio` and `resolution`, travel as extra body); its `images.edit()` uploads files as
 * multipart, which is not what this request sent (JSON with `image`/`images` as URLs or file ids),
 * so an edit goes through the SDK's generic `post()` with the recorded body.
 */
import type { CapturedRequest } from '../../contract/runs';
import type { CodeExporter } from '../types';
import { toCurl } from '../../codegen/curl';
import { environmentHeader, pyUrl, secretHeaders, splitRequestUrl, tsUrl } from '../../codegen/environment';
import { pyLiteral, stringLiteral, tsLiteral } from '../../codegen/literals';
import { apiKeyEnv, bodyObject, bodyText, portableHeaders, sdkHeaders, type CodegenOptions } from '../../codegen/request-parts';


/** Fields the SDK's `images.generate()` names; the rest go in `extra_body`. */
const GENERATE_NAMED = new Set(['model', 'prompt', 'n', 'response_format', 'user']);

function body(request: CapturedRequest): Record<string, unknown> {
  return bodyObject(request.body) ?? {};
}

/**
 * Bodies longer than this go to curl on its standard input (a here-document): Linux refuses a
 * single argument over 128 KB, and an edit's base64 images are megabytes.
 */
const CURL_ARG_MAX = 100 * 1024;

export function imagesCurl(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const text = bodyText(request.body) ?? '';
  const command = text.length <= CURL_ARG_MAX ? toCurl(request, opts) : `${toCurl({ ...request, body: null }, opts)} \\\n  --data-binary @- <<'JSON'\n${text}\nJSON`;
  return [
    command,
    '# Each data[].url expires: save it at once (no key needed), e.g. curl -sS -o image-1.jpg "<url>",',
    '# named by its data[].mime_type (image/jpeg: .jpg, image/png: .png, image/webp: .webp).',
    '# With response_format b64_json, decode data[].b64_json instead (base64 -d > image-1.jpg, per mime_type).',
  ].join('\n');
}

/**
 * Python lines that save every image of `images` (dicts) and print what came with them. Each file
 * is named by what it is: the answer's `mime_type`, else the bytes' own signature (the service
 * makes JPEG: a fixed `.png` would mislabel it).
 */
const PY_SAVE = [
  'def extension(data, mime):',
  '    known = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp"}',
  '    if mime in known:',
  '        return known[mime]',
  '    if data[:3] == b"\\xff\\xd8\\xff":',
  '        return "jpg"',
  '    if data[:8] == b"\\x89PNG\\r\\n\\x1a\\n":',
  '        return "png"',
  '    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":',
  '        return "webp"',
  '    return "bin"',
  '',
  'for i, image in enumerate(images, start=1):',
  '    if image.get("b64_json"):',
  '        data = base64.b64decode(image["b64_json"])',
  '    else:',
  '        # The URL expires and needs no key: download it at once.',
  '        with urllib.request.urlopen(image["url"]) as download:',
  '            data = download.read()',
  '    name = f"image-{i}.{extension(data, image.get(\'mime_type\'))}"',
  '    with open(name, "wb") as f:',
  '        f.write(data)',
  '    print("saved", name, "-", image.get("revised_prompt") or "")',
];

export function imagesPython(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { base, rest } = splitRequestUrl(request, opts);
  return [
    ...environmentHeader(request, opts, '#'),
    '# Standard library only: send the request, then save every image at once. python3 snippet.py',
    'import base64, json, os, urllib.error, urllib.request',
    '',
    'headers = {',
    `    "Authorization": "Bearer " + os.environ[${pyLiteral(env)}],`,
    '    "Content-Type": "application/json",',
    ...portableHeaders(request.headers)
      .filter(([n]) => n.toLowerCase() !== 'content-type')
      .map(([n, v]) => `    ${pyLiteral(n)}: ${pyLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `    ${pyLiteral(n)}: os.environ.get(${pyLiteral(envName)}, ""),`),
    '}',
    `body = ${pyLiteral(request.body)}`,
    `request = urllib.request.Request(${pyUrl(base, rest)}, data=json.dumps(body).encode(), headers=headers, method="POST")`,
    'try:',
    '    with urllib.request.urlopen(request) as response:',
    '        result = json.load(response)',
    'except urllib.error.HTTPError as error:',
    '    raise SystemExit(f"HTTP {error.code}: {error.read().decode()}")',
    'images = result["data"]',
    ...PY_SAVE,
    'print("cost (ticks):", (result.get("usage") or {}).get("cost_in_usd_ticks"))',
  ].join('\n');
}

export function imagesPythonSdk(request: CapturedRequest, opts: CodegenOptions = {}, edit = false): string {
  const env = apiKeyEnv(opts);
  const sent = body(request);
  const headers = [
    ...sdkHeaders(request.headers).map(([n, v]) => `        ${stringLiteral(n)}: ${stringLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `        ${stringLiteral(n)}: os.environ[${stringLiteral(envName)}],`),
  ];
  let call: string[];
  if (edit) {
    call = [
      '# images.edit() would upload files as multipart; this edit sent JSON (image URLs or file ids), so post() sends it as it was.',
      `result = client.post("/images/edits", body=${pyLiteral(sent)}, cast_to=object)`,
      'images = result["data"]',
      'cost = (result.get("usage") or {}).get("cost_in_usd_ticks")',
    ];
  } else {
    const named = Object.entries(sent).filter(([k]) => GENERATE_NAMED.has(k));
    const extra = Object.fromEntries(Object.entries(sent).filter(([k]) => !GENERATE_NAMED.has(k)));
    const args = [...named.map(([k, v]) => `    ${k}=${pyLiteral(v, '    ')},`), ...(Object.keys(extra).length ? [`    extra_body=${pyLiteral(extra, '    ')},`] : [])];
    call = [
      `result = client.images.generate(\n${args.join('\n')}\n)`,
      'images = [image.model_dump() for image in result.data]',
      'cost = (result.model_dump().get("usage") or {}).get("cost_in_usd_ticks")',
    ];
  }
  return [
    ...environmentHeader(request, opts, '#'),
    '# With the official SDK (pip install openai): send the request, then save every image at once. python3 snippet.py',
    'import base64, os, urllib.request',
    'from openai import OpenAI',
    '',
    'client = OpenAI(',
    `    api_key=os.environ[${stringLiteral(env)}],`,
    `    base_url=${pyUrl(splitRequestUrl(request, opts).base, '/v1')},`,
    ...(headers.length ? ['    default_headers={', ...headers, '    },'] : []),
    ')',
    ...call,
    ...PY_SAVE,
    'print("cost (ticks):", cost)',
  ].join('\n');
}

/**
 * TypeScript lines that save every image of `images` and print what came with them, each named
 * by its `mime_type`, else by the bytes' own signature (as PY_SAVE).
 */
const TS_SAVE = [
  'function extension(data: Uint8Array, mime: string | undefined): string {',
  '  const known: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };',
  '  if (mime && known[mime]) return known[mime];',
  '  const head = Buffer.from(data.subarray(0, 12));',
  '  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpg";',
  '  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";',
  '  if (head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP") return "webp";',
  '  return "bin";',
  '}',
  'for (const [i, image] of images.entries()) {',
  '  let data: Uint8Array;',
  '  if (image.b64_json) {',
  '    data = Buffer.from(image.b64_json, "base64");',
  '  } else {',
  '    // The URL expires and needs no key: download it at once.',
  '    const download = await fetch(image.url);',
  '    if (!download.ok) throw new Error(`Download of image ${i + 1} failed: HTTP ${download.status}`);',
  '    data = new Uint8Array(await download.arrayBuffer());',
  '  }',
  '  const name = `image-${i + 1}.${extension(data, image.mime_type)}`;',
  '  await writeFile(name, data);',
  '  console.log("saved", name, "-", image.revised_prompt ?? "");',
  '}',
];

export function imagesTypeScript(request: CapturedRequest, opts: CodegenOptions = {}): string {
  const env = apiKeyEnv(opts);
  const { base, rest } = splitRequestUrl(request, opts);
  return [
    ...environmentHeader(request, opts, '//'),
    '// fetch (Node 18+): send the request, then save every image at once. npx tsx snippet.mts',
    'import { writeFile } from "node:fs/promises";',
    '',
    `const response = await fetch(${tsUrl(base, rest)}, {`,
    '  method: "POST",',
    '  headers: {',
    `    Authorization: \`Bearer \${process.env[${stringLiteral(env)}]}\`,`,
    '    "Content-Type": "application/json",',
    ...portableHeaders(request.headers)
      .filter(([n]) => n.toLowerCase() !== 'content-type')
      .map(([n, v]) => `    ${stringLiteral(n)}: ${stringLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `    ${stringLiteral(n)}: process.env[${stringLiteral(envName)}] ?? "",`),
    '  },',
    `  body: JSON.stringify(${tsLiteral(request.body, '  ')}),`,
    '});',
    'if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);',
    'const result: any = await response.json();',
    'const images: any[] = result.data;',
    ...TS_SAVE,
    'console.log("cost (ticks):", result.usage?.cost_in_usd_ticks);',
  ].join('\n');
}

export function imagesTypeScriptSdk(request: CapturedRequest, opts: CodegenOptions = {}, edit = false): string {
  const env = apiKeyEnv(opts);
  const sent = body(request);
  const headers = [
    ...sdkHeaders(request.headers).map(([n, v]) => `    ${stringLiteral(n)}: ${stringLiteral(v)},`),
    ...secretHeaders(request.headers).map(([n, envName]) => `    ${stringLiteral(n)}: process.env[${stringLiteral(envName)}] ?? "",`),
  ];
  const call = edit
    ? [
        '// images.edit() would upload files as multipart; this edit sent JSON (image URLs or file ids), so post() sends it as it was.',
        `const result: any = await client.post("/images/edits", { body: ${tsLiteral(sent)} });`,
      ]
    : [
        '// aspect_ratio and resolution are this service\'s own fields: the SDK sends the body as given.',
        `const result: any = await client.images.generate(${tsLiteral(sent)} as any);`,
      ];
  return [
    ...environmentHeader(request, opts, '//'),
    '// With the official SDK (npm install openai): send the request, then save every image at once. npx tsx snippet.mts',
    'import { writeFile } from "node:fs/promises";',
    'import OpenAI from "openai";',
    '',
    'const client = new OpenAI({',
    `  apiKey: process.env[${stringLiteral(env)}],`,
    `  baseURL: ${tsUrl(splitRequestUrl(request, opts).base, '/v1')},`,
    ...(headers.length ? ['  defaultHeaders: {', ...headers, '  },'] : []),
    '});',
    ...call,
    'const images: any[] = result.data;',
    ...TS_SAVE,
    'console.log("cost (ticks):", result.usage?.cost_in_usd_ticks);',
  ].join('\n');
}

/**
 * The Images family's code export of a generation or (`edit`) an edit, as its two descriptors
 * name it: every language has one; only the SDKs call them differently.
 */
export function imagesExporter(edit: boolean): CodeExporter {
  return {
    curl: (request, opts) => ({ code: imagesCurl(request, opts) }),
    python: (request, opts) => ({ code: imagesPython(request, opts) }),
    'python-sdk': (request, opts) => ({ code: imagesPythonSdk(request, opts, edit) }),
    typescript: (request, opts) => ({ code: imagesTypeScript(request, opts) }),
    'typescript-sdk': (request, opts) => ({ code: imagesTypeScriptSdk(request, opts, edit) }),
  };
}

/**
 * "Copy as TypeScript (SDK)": the recorded request with the official SDK (openai for chat,
 * responses and completions; @anthropic-ai/sdk for messages and complete), key from the environment.
 * Same output as the fetch snippet: text, streamed deltas, or a tool loop.
 */
import type { CapturedRequest } from '../contract/runs';
import { endpointKind, responseIdOf, SDK_METHOD, sdkFamily, sdkGap, type EndpointKind } from './endpoint';
import { environmentHeader, secretHeaders, splitRequestUrl, tsUrl } from './environment';
import { stringLiteral, tsLiteral } from './literals';
import { apiKeyEnv, isStreaming, sdkHeaders, type CodegenOptions } from './request-parts';
import { loopBody, toolNames, wantsToolLoop } from './tool-loop';
import { tsDeltaExpression, tsOutputTextFunction } from './ts-readers';
import { tsToolStubs, tsToolTurns } from './ts-tool-loop';
import type { ProgramOptions } from './typescript';

/** The SDK method per endpoint (`client.<method>(...)`). */
const METHOD: Record<Exclude<EndpointKind, 'other'>, string> = SDK_METHOD;

function clientLines(request: CapturedRequest, opts: CodegenOptions, env: string, kind: EndpointKind): string[] {
  const family = sdkFamily(kind)!;
  const lines =
    family === 'openai'
      ? ['import OpenAI from "openai";', '', 'const client = new OpenAI({', `  apiKey: process.env[${stringLiteral(env)}],`]
      : [
          'import Anthropic from "@anthropic-ai/sdk";',
          '',
          'const client = new Anthropic({',
          '  // The service takes the key as a Bearer token (Authorization), not x-api-key.',
          '  apiKey: null,',
          `  authToken: process.env[${stringLiteral(env)}],`,
        ];
  // The OpenAI SDK is given the URL up to /v1; the Anthropic SDK appends /v1 itself.
  lines.push(`  baseURL: ${tsUrl(splitRequestUrl(request, opts).base, family === 'openai' ? '/v1' : '')},`);
  const headers = sdkHeaders(request.headers);
  const secret = secretHeaders(request.headers);
  if (headers.length + secret.length > 0) {
    lines.push('  defaultHeaders: {');
    for (const [name, value] of headers) lines.push(`    ${stringLiteral(name)}: ${stringLiteral(value)},`);
    for (const [name, envName] of secret) lines.push(`    ${stringLiteral(name)}: process.env[${stringLiteral(envName)}] ?? "",`);
    lines.push('  },');
  }
  lines.push('});');
  return lines;
}

/** A runnable TypeScript program using the official SDK, or the reason there is none. */
export function toTypeScriptSdk(request: CapturedRequest, opts: ProgramOptions = {}): { code: string } | { unsupported: string } {
  const gap = sdkGap(request);
  if (gap !== null) return { unsupported: gap };
  const env = apiKeyEnv(opts);
  const kind = endpointKind(request.method, request.url) as Exclude<EndpointKind, 'other'>;
  const method = `client.${METHOD[kind]}`;
  const lines = [...environmentHeader(request, opts, '//'), '// Run: npx tsx snippet.mts'];
  lines.push(...clientLines(request, opts, env, kind), '');
  if (wantsToolLoop(opts, kind, request.body)) {
    const body = loopBody(request.body);
    lines.push(`const body: any = ${tsLiteral(body)};`, '');
    lines.push(`const send = (payload: any): Promise<any> => ${method}(payload);`, '');
    lines.push(...tsOutputTextFunction(kind), '', ...tsToolStubs(toolNames(kind, body)), '', ...tsToolTurns(kind));
    return { code: lines.join('\n') };
  }
  const args =
    kind === 'responses-get' || kind === 'responses-delete'
      ? stringLiteral(responseIdOf(request.url))
      : kind === 'complete'
        ? `"/v1/complete", { body: ${tsLiteral(request.body)} }`
        : tsLiteral(request.body);
  if (isStreaming(request.body)) {
    lines.push(`const stream = await ${method}(${args});`);
    lines.push('for await (const event of stream as any) {');
    lines.push(`  const text = ${tsDeltaExpression(kind)};`);
    lines.push('  if (text) process.stdout.write(text);', '}', 'process.stdout.write("\\n");');
    return { code: lines.join('\n') };
  }
  if (kind === 'responses-delete') {
    lines.push(`await ${method}(${args});`, `console.log(${stringLiteral(`deleted ${responseIdOf(request.url)}`)});`);
    return { code: lines.join('\n') };
  }
  lines.push(`const data = await ${method}(${args});`, '', ...tsOutputTextFunction(kind), '', 'console.log(outputText(data));');
  return { code: lines.join('\n') };
}

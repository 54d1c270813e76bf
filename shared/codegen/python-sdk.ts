/**
 * "Copy as Python (SDK)": the recorded request with the official Python SDK (openai for chat,
 * responses and completions; anthropic for messages and complete), key from the environment.
 * Parameters the SDK method does not name travel in `extra_body`, which every method takes.
 */
import type { CapturedRequest } from '../contract/runs';
import { endpointKind, responseIdOf, SDK_METHOD, sdkFamily, sdkGap, type EndpointKind } from './endpoint';
import { pyLiteral, stringLiteral } from './literals';
import { pyOutputTextFunction } from './py-readers';
import { pyToolStubs, pyToolTurns } from './py-tool-loop';
import { environmentHeader, pyUrl, secretHeaders, splitRequestUrl } from './environment';
import { apiKeyEnv, bodyObject, isStreaming, sdkHeaders, type CodegenOptions } from './request-parts';
import { loopBody, toolNames, wantsToolLoop } from './tool-loop';
import type { ProgramOptions } from './typescript';

const COMMON = ['model', 'stream', 'temperature', 'top_p', 'metadata', 'service_tier'];
/** Keyword arguments each SDK method names (the rest go to extra_body). */
const NAMED: Partial<Record<EndpointKind, string[]>> = {
  chat: [
    ...COMMON, 'messages', 'frequency_penalty', 'logit_bias', 'logprobs', 'max_completion_tokens', 'max_tokens', 'n',
    'parallel_tool_calls', 'presence_penalty', 'prompt_cache_key', 'reasoning_effort', 'response_format', 'seed', 'stop',
    'stream_options', 'tool_choice', 'tools', 'top_logprobs', 'user', 'web_search_options',
  ],
  responses: [
    ...COMMON, 'input', 'instructions', 'previous_response_id', 'background', 'include', 'max_output_tokens', 'parallel_tool_calls',
    'prompt_cache_key', 'reasoning', 'store', 'text', 'tool_choice', 'tools', 'top_logprobs', 'truncation', 'user',
  ],
  'responses-compact': ['model', 'input'],
  completions: [
    ...COMMON, 'prompt', 'best_of', 'echo', 'frequency_penalty', 'logit_bias', 'logprobs', 'max_tokens', 'n', 'presence_penalty',
    'seed', 'stop', 'stream_options', 'suffix', 'user',
  ],
  messages: [...COMMON, 'max_tokens', 'messages', 'stop_sequences', 'system', 'thinking', 'tool_choice', 'tools', 'top_k'],
};

const METHOD: Partial<Record<EndpointKind, string>> = SDK_METHOD;

/** The body as SDK keyword arguments: named ones first, anything else gathered in extra_body. */
export function sdkKwargs(kind: EndpointKind, body: Record<string, unknown>): Record<string, unknown> {
  const named = new Set(NAMED[kind] ?? []);
  const out: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) (named.has(key) ? out : extra)[key] = value;
  if (Object.keys(extra).length > 0) out.extra_body = extra;
  return out;
}

/** `default_headers={...}`: recorded values as literals, redacted ones read from the environment. */
function defaultHeaders(request: CapturedRequest): string[] {
  const entries = [
    ...sdkHeaders(request.headers).map(([name, value]) => `        ${stringLiteral(name)}: ${stringLiteral(value)},`),
    ...secretHeaders(request.headers).map(([name, envName]) => `        ${stringLiteral(name)}: os.environ[${stringLiteral(envName)}],`),
  ];
  return entries.length > 0 ? ['    default_headers={', ...entries, '    },'] : [];
}

function clientLines(request: CapturedRequest, opts: CodegenOptions, env: string, kind: EndpointKind): string[] {
  const family = sdkFamily(kind)!;
  const lines =
    family === 'openai'
      ? ['from openai import OpenAI', '', 'client = OpenAI(', `    api_key=os.environ[${stringLiteral(env)}],`]
      : [
          'from anthropic import Anthropic',
          '',
          'client = Anthropic(',
          '    # The service takes the key as a Bearer token (Authorization), not x-api-key.',
          `    auth_token=os.environ[${stringLiteral(env)}],`,
        ];
  // The OpenAI SDK is given the URL up to /v1; the Anthropic SDK appends /v1 itself.
  lines.push(`    base_url=${pyUrl(splitRequestUrl(request, opts).base, family === 'openai' ? '/v1' : '')},`);
  lines.push(...defaultHeaders(request), ')');
  return lines;
}

function call(kind: EndpointKind, request: CapturedRequest, body: Record<string, unknown>): string {
  if (kind === 'responses-get' || kind === 'responses-delete') return `client.${METHOD[kind]}(${stringLiteral(responseIdOf(request.url))})`;
  // The Anthropic SDK has no method for the legacy endpoint any more: its generic post() does.
  if (kind === 'complete') return `client.post("/v1/complete", body=${pyLiteral(body)}, cast_to=object)`;
  const args = Object.entries(sdkKwargs(kind, body)).map(([k, v]) => `    ${k}=${pyLiteral(v, '    ')},`);
  return `client.${METHOD[kind]}(\n${args.join('\n')}\n)`;
}

const SDK_DELTA: Partial<Record<EndpointKind, string>> = {
  chat: 'event.choices[0].delta.content if event.choices else None',
  responses: 'event.delta if event.type == "response.output_text.delta" else None',
  messages: 'event.delta.text if event.type == "content_block_delta" and event.delta.type == "text_delta" else None',
  completions: 'event.choices[0].text if event.choices else None',
};

/** A runnable Python script using the official SDK, or the reason there is none. */
export function toPythonSdk(request: CapturedRequest, opts: ProgramOptions = {}): { code: string } | { unsupported: string } {
  const gap = sdkGap(request);
  if (gap !== null) return { unsupported: gap };
  const kind = endpointKind(request.method, request.url);
  const env = apiKeyEnv(opts);
  const body = bodyObject(request.body) ?? {};
  if (isStreaming(body) && kind === 'complete') return { unsupported: 'The service does not stream /v1/complete.' };
  const lines = [...environmentHeader(request, opts, '#'), '# Run: python3 snippet.py', 'import json', 'import os', ''];
  lines.push(...clientLines(request, opts, env, kind), '', '');
  if (wantsToolLoop(opts, kind, body)) {
    lines.push(`body = ${pyLiteral(sdkKwargs(kind, loopBody(body)))}`, '', '');
    lines.push('def send(payload):', `    return client.${METHOD[kind]}(**payload).model_dump(exclude_none=True)`, '', '');
    lines.push(...pyOutputTextFunction(kind), '', '', ...pyToolStubs(toolNames(kind, body)), '', '', ...pyToolTurns(kind));
    return { code: lines.join('\n') };
  }
  if (isStreaming(body)) {
    lines.push(`stream = ${call(kind, request, body)}`, 'for event in stream:');
    lines.push(`    text = ${SDK_DELTA[kind] ?? 'None'}`, '    if text:', '        print(text, end="", flush=True)', 'print()');
    return { code: lines.join('\n') };
  }
  if (kind === 'responses-delete') {
    lines.push(call(kind, request, body), `print(${stringLiteral(`deleted ${responseIdOf(request.url)}`)})`);
    return { code: lines.join('\n') };
  }
  lines.push(...pyOutputTextFunction(kind), '', '');
  lines.push(`result = ${call(kind, request, body)}`);
  // model_dump() gives the answer as plain JSON (dicts and lists), read the same way as over HTTP.
  lines.push(kind === 'complete' ? 'print(output_text(result))' : 'print(output_text(result.model_dump()))');
  return { code: lines.join('\n') };
}

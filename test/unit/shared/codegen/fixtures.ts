/** Recorded requests for the codegen tests: one per text endpoint, headers as the recorder keeps them. */
import type { CapturedRequest } from '../../../../shared/contract/runs';

export const BASE = 'http://127.0.0.1:4000';
export const SECRET = 'sk-secret-123';

const headers = {
  accept: 'application/json',
  'content-type': 'application/json',
  authorization: 'Bearer ***',
  'x-api-key': '***',
  'user-agent': 'InferenceWorkbench/0.1',
  'x-svc-conv-id': 'conv-7',
};

export function post(path: string, body: unknown): CapturedRequest {
  return { method: 'POST', url: `${BASE}${path}`, headers: { ...headers }, body };
}

export const chatTools = [
  { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
  { type: 'function', function: { name: 'lookup_time', parameters: { type: 'object', properties: {} } } },
];

export const requests = {
  chat: post('/v1/chat/completions', { model: 'svc-4', messages: [{ role: 'user', content: 'say "hi"' }], search_parameters: { mode: 'off' } }),
  chatStream: post('/v1/chat/completions', { model: 'svc-4', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] }),
  chatTools: post('/v1/chat/completions', { model: 'svc-4', stream: true, messages: [{ role: 'user', content: 'weather?' }], tools: chatTools }),
  responses: post('/v1/responses', { model: 'svc-4', input: 'hi', instructions: 'Be brief.' }),
  responsesTools: post('/v1/responses', {
    model: 'svc-4',
    input: 'weather?',
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }, { type: 'web_search' }],
  }),
  compact: post('/v1/responses/compact', { model: 'svc-4', input: 'long talk' }),
  responseGet: { method: 'GET', url: `${BASE}/v1/responses/resp-42`, headers: { ...headers }, body: null } as CapturedRequest,
  responseDelete: { method: 'DELETE', url: `${BASE}/v1/responses/resp-42`, headers: { ...headers }, body: null } as CapturedRequest,
  messages: post('/v1/messages', { model: 'svc-4', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
  messagesTools: post('/v1/messages', {
    model: 'svc-4',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'weather?' }],
    tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
  }),
  completions: post('/v1/completions', { model: 'svc-4', prompt: 'Once' }),
  complete: post('/v1/complete', { model: 'svc-4', prompt: '\n\nHuman: hi\n\nAssistant:', max_tokens_to_sample: 20 }),
  models: { method: 'GET', url: `${BASE}/v1/models`, headers: { ...headers }, body: null } as CapturedRequest,
};

/** The code of a generated program; fails the test with the reason when there is none. */
export function codeOf(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(`unsupported: ${result.unsupported}`);
  return result.code;
}

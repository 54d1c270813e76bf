/**
 * A fake service on loopback that echoes the API key it is sent, in every shape a careless
 * service or proxy has been seen to: in error messages, a response header, 200 bodies, SSE
 * frames (whole, and split across frames), as base64 / base64url / Basic auth / URL-encoded /
 * Bearer. It speaks just enough of chat, Messages, Responses and legacy completions for the app's
 * services to record a run. `x-echo-mode` picks the answer: `ok` (the default), `error` (401),
 * `error-frame` (an error inside the stream), `hang` (a few frames, then silence until closed).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** The key in each shape this service echoes it in. */
export function echoShapes(key: string): string[] {
  return [
    key,
    `Bearer ${key}`,
    JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
    encodeURIComponent(key),
    b64(key),
    b64(key).replace(/=+$/, ''),
    Buffer.from(key).toString('base64url'),
    `Basic ${b64(`:${key}`)}`,
    `Basic ${b64(`user:${key}`)}`,
  ];
}

export interface EchoService {
  baseUrl: string;
  /** Requests answered so far, by `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

type Family = 'chat' | 'messages' | 'responses' | 'completions';

function familyOf(path: string): Family | null {
  if (path.startsWith('/v1/chat/completions')) return 'chat';
  if (path.startsWith('/v1/messages')) return 'messages';
  if (path.startsWith('/v1/responses')) return 'responses';
  if (path.startsWith('/v1/completions')) return 'completions';
  return null;
}

/** A whole answer of `family` whose text is `text`. */
function plainAnswer(family: Family, text: string): object {
  const usage = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 };
  switch (family) {
    case 'chat':
      return { id: 'chatcmpl-echo', object: 'chat.completion', created: 1, model: 'echo-1', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage };
    case 'completions':
      return { id: 'cmpl-echo', object: 'text_completion', created: 1, model: 'echo-1', choices: [{ index: 0, text, finish_reason: 'stop' }], usage };
    case 'messages':
      return { id: 'msg_echo', type: 'message', role: 'assistant', model: 'echo-1', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 5 } };
    case 'responses':
      return responseObject(text);
  }
}

function responseObject(text: string): object {
  return {
    id: 'resp_echo',
    object: 'response',
    created_at: 1,
    model: 'echo-1',
    status: 'completed',
    store: false,
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 },
  };
}

/**
 * The stream frames of `family` carrying `pieces` of text in order, then its end. Chat also
 * streams a tool call whose arguments come in `toolArgs` pieces.
 */
function streamFrames(family: Family, pieces: string[], toolArgs: string[] = []): string[] {
  const data = (v: object): string => `data: ${JSON.stringify(v)}\n\n`;
  const named = (type: string, v: object): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...v })}\n\n`;
  switch (family) {
    case 'chat':
      return [
        ...pieces.map((p) => data({ id: 'c1', object: 'chat.completion.chunk', model: 'echo-1', choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })),
        ...toolArgs.map((args, i) => {
          const call = i === 0 ? { index: 0, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: args } } : { index: 0, function: { arguments: args } };
          return data({ id: 'c1', object: 'chat.completion.chunk', model: 'echo-1', choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }] });
        }),
        data({ id: 'c1', object: 'chat.completion.chunk', model: 'echo-1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        'data: [DONE]\n\n',
      ];
    case 'completions':
      return [
        ...pieces.map((p) => data({ id: 'k1', object: 'text_completion', model: 'echo-1', choices: [{ index: 0, text: p, finish_reason: null }] })),
        data({ id: 'k1', object: 'text_completion', model: 'echo-1', choices: [{ index: 0, text: '', finish_reason: 'stop' }] }),
        'data: [DONE]\n\n',
      ];
    case 'messages':
      return [
        named('message_start', { message: { id: 'msg_echo', type: 'message', role: 'assistant', model: 'echo-1', content: [], usage: { input_tokens: 3, output_tokens: 0 } } }),
        named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...pieces.map((p) => named('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } })),
        named('content_block_stop', { index: 0 }),
        named('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }),
        named('message_stop', {}),
      ];
    case 'responses':
      return [
        named('response.created', { response: { ...responseObject(''), status: 'in_progress', output: [] } }),
        named('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } }),
        ...pieces.map((p) => named('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_1', delta: p })),
        named('response.completed', { response: responseObject(pieces.join('')) }),
        'data: [DONE]\n\n',
      ];
  }
}

function errorFrame(family: Family, message: string): string {
  const body = family === 'messages' ? { type: 'error', error: { type: 'authentication_error', message } } : { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function answer(req: IncomingMessage, res: ServerResponse, body: string, seen: string[]): Promise<void> {
  const path = req.url ?? '/';
  seen.push(`${req.method} ${path}`);
  const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  const all = echoShapes(key).join(' | ');
  const mode = String(req.headers['x-echo-mode'] ?? 'ok');
  const headers = { 'x-request-id': 'req-echo-1', 'x-echoed-key': all, 'www-authenticate': `Bearer realm="${key}"` };
  const family = familyOf(path);
  if (mode === 'error' || family === null) {
    res.writeHead(401, { ...headers, 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${all}`, type: 'invalid_request_error', code: 'invalid_api_key', param: b64(key) } }));
    return;
  }
  const streamed = req.method === 'POST' && (JSON.parse(body || '{}') as { stream?: boolean }).stream === true;
  if (!streamed) {
    res.writeHead(200, { ...headers, 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...plainAnswer(family, `Your key is ${all}.`), echo: { key, basic: `Basic ${b64(`user:${key}`)}` } }));
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
  res.flushHeaders();
  const basic = b64(`user:${key}`);
  // Whole shapes in one frame, then the raw key and a Basic credential each split over frames.
  const pieces = [`Your key is ${all}. Again: `, key.slice(0, 9), `${key.slice(9)} and `, basic.slice(0, 20), basic.slice(20), ' done.'];
  if (mode === 'hang') {
    for (const frame of streamFrames(family, ['Partial answer ', 'before the app stops']).slice(0, 3)) res.write(frame);
    return; // never ends: the test stops the app's side
  }
  const frames = streamFrames(family, pieces, [`{"key":"${key.slice(0, 12)}`, `${key.slice(12)}"}`]);
  if (mode === 'error-frame') frames.splice(3, frames.length, errorFrame(family, `key rejected mid-stream: ${all}`));
  for (const frame of frames) {
    // A frame split over two writes, so the client also sees a key cut across TCP chunks.
    const cut = Math.floor(frame.length / 2);
    res.write(frame.slice(0, cut));
    await new Promise((r) => setTimeout(r, 1));
    res.write(frame.slice(cut));
  }
  res.end();
}

/** Starts the service on 127.0.0.1 (a free port). */
export async function startEchoService(): Promise<EchoService> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => void answer(req, res, Buffer.concat(parts).toString('utf8'), seen));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A fake service on 127.0.0.1 that leaks the API key it is sent into every place of its answers,
 * in every encoding (raw, JSON-escaped, URL-encoded in both cases, base64 / base64url padded or
 * not, hex in both cases): a response header, JSON bodies, error bodies, SSE `event:` names and
 * `id:` lines, SSE data split across two or three events (each piece harmless alone), and the
 * result URLs of images and videos, which it then serves. It records the exact path and query of
 * every request, so a test can tell that a result was fetched where the service said.
 *
 * Chat, Messages and Responses stream (or answer whole); `/v1/images/generations` answers a URL;
 * `/v1/videos/generations` is done at the first poll with a URL. `x-leak-mode: error` answers 401.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeMp4 } from '../videos/fake-video-service';
import { pngOf } from '../../unit/main/services/media-fixtures';

/** Every encoding of `key` the service uses, by name. */
export function encodings(key: string): Record<string, string> {
  const bytes = Buffer.from(key, 'utf8');
  const url = encodeURIComponent(key);
  return {
    raw: key,
    json: JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
    url,
    urlLower: url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    base64: bytes.toString('base64'),
    base64NoPad: bytes.toString('base64').replace(/=+$/, ''),
    base64url: bytes.toString('base64url'),
    hex: bytes.toString('hex'),
    HEX: bytes.toString('hex').toUpperCase(),
  };
}

/** How the service cuts an encoded key over events: halves, and thirds for the longest. */
export function splits(encoded: string): string[][] {
  const half = Math.floor(encoded.length / 2);
  const third = Math.floor(encoded.length / 3);
  return [
    [encoded.slice(0, half), encoded.slice(half)],
    [encoded.slice(0, third), encoded.slice(third, 2 * third), encoded.slice(2 * third)],
  ];
}

/** Every piece the service sends alone (the test looks for each of them). */
export function piecesOf(key: string): string[] {
  return Object.values(encodings(key)).flatMap((e) => splits(e).flat());
}

export interface LeakyService {
  baseUrl: string;
  /** `METHOD path?query` of every request, exactly as it arrived. */
  seen: string[];
  /** The result URLs it gave (what the app must fetch as they are). */
  imageUrl(key: string): string;
  videoUrl(key: string): string;
  close(): Promise<void>;
}

type Family = 'chat' | 'messages' | 'responses';

const data = (v: object): string => `data: ${JSON.stringify(v)}\n\n`;

/** The SSE frames of `family`: `texts` as content deltas, each frame named and identified as `names[i]`. */
function frames(family: Family, texts: string[], names: Array<string | null>): string[] {
  const head = (i: number): string => (names[i] ? `event: ${names[i]}\nid: ${names[i]}\n` : '');
  switch (family) {
    case 'chat':
      return [
        ...texts.map((t, i) => head(i) + data({ id: 'c1', object: 'chat.completion.chunk', model: 'leak-1', choices: [{ index: 0, delta: { content: t }, finish_reason: null }] })),
        data({ id: 'c1', object: 'chat.completion.chunk', model: 'leak-1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        'data: [DONE]\n\n',
      ];
    case 'messages': {
      const named = (type: string, v: object): string => `event: ${type}\n${data({ type, ...v })}`;
      return [
        named('message_start', { message: { id: 'msg_leak', type: 'message', role: 'assistant', model: 'leak-1', content: [], usage: { input_tokens: 3, output_tokens: 0 } } }),
        named('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        ...texts.map((t) => named('content_block_delta', { index: 0, delta: { type: 'text_delta', text: t } })),
        named('content_block_stop', { index: 0 }),
        named('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }),
        named('message_stop', {}),
      ];
    }
    case 'responses': {
      const named = (type: string, v: object): string => `event: ${type}\n${data({ type, ...v })}`;
      const response = (status: string, text: string | null): object => ({
        id: 'resp_leak',
        object: 'response',
        created_at: 1,
        model: 'leak-1',
        status,
        store: false,
        output: text === null ? [] : [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
        usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 },
      });
      return [
        named('response.created', { response: response('in_progress', null) }),
        named('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } }),
        // Another event between each two pieces: the pieces of one text need not be neighbours.
        ...texts.flatMap((t, i) => [
          named('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_1', delta: t, sequence_number: 2 * i }),
          named('response.in_progress', { sequence_number: 2 * i + 1 }),
        ]),
        named('response.completed', { response: response('completed', texts.join('')) }),
        'data: [DONE]\n\n',
      ];
    }
  }
}

function familyOf(path: string): Family | null {
  if (path.startsWith('/v1/chat/completions')) return 'chat';
  if (path.startsWith('/v1/messages')) return 'messages';
  if (path.startsWith('/v1/responses')) return 'responses';
  return null;
}

/** A whole answer of `family` whose text is `text`. */
function plain(family: Family, text: string): object {
  if (family === 'messages') return { id: 'msg_leak', type: 'message', role: 'assistant', model: 'leak-1', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 3, output_tokens: 5 } };
  if (family === 'responses') {
    return { id: 'resp_leak', object: 'response', created_at: 1, model: 'leak-1', status: 'completed', store: false, output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }], usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 } };
  }
  return { id: 'c1', object: 'chat.completion', created: 1, model: 'leak-1', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } };
}

export async function startLeakyService(): Promise<LeakyService> {
  const seen: string[] = [];
  let baseUrl = '';
  const imageUrl = (key: string): string => {
    const e = encodings(key);
    return `${baseUrl}/cdn/${e.hex}/${e.url}.png?sig=${e.base64url}&k=${key}&H=${e.HEX}`;
  };
  const videoUrl = (key: string): string => {
    const e = encodings(key);
    return `${baseUrl}/media/${e.HEX}.mp4?token=${key}&b=${e.base64NoPad}`;
  };

  const answer = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const path = req.url ?? '/';
    seen.push(`${req.method} ${path}`);
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const all = key ? Object.values(encodings(key)).join(' | ') : 'no key';
    const headers = { 'x-request-id': `req-${key}`, 'x-leaked': all, 'www-authenticate': `Bearer realm="${encodings(key).hex}"` };
    if (path.startsWith('/cdn/')) {
      const png = pngOf(8, 8);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
      res.end(png);
      return;
    }
    if (path.startsWith('/media/')) {
      const mp4 = fakeMp4('leak');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mp4.length) });
      res.end(mp4);
      return;
    }
    const json = (status: number, value: object): void => {
      res.writeHead(status, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers['x-leak-mode'] === 'error' || !key) {
      json(401, { error: { message: `Incorrect API key provided: ${all}`, type: 'invalid_request_error', code: 'invalid_api_key', param: encodings(key).HEX } });
      return;
    }
    if (path === '/v1/images/generations') {
      json(200, { created: 1, data: [{ url: imageUrl(key), mime_type: 'image/png', revised_prompt: `drawn for ${all}` }], usage: { cost_in_usd_ticks: 1000 } });
      return;
    }
    if (path === '/v1/videos/generations') {
      json(200, { request_id: 'vid_leak' });
      return;
    }
    if (path === '/v1/videos/vid_leak') {
      json(200, { status: 'done', model: 'leak-video', video: { url: videoUrl(key), duration: 3, respect_moderation: true }, note: all, usage: { cost_in_usd_ticks: 1000 } });
      return;
    }
    const family = familyOf(path);
    if (!family) return json(404, { error: { message: `no route ${path} for ${all}` } });
    const streamed = (JSON.parse(body || '{}') as { stream?: boolean }).stream === true;
    if (!streamed) return json(200, { ...plain(family, `Your key is ${all}.`), leaked: encodings(key) });
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream' });
    // Each encoding whole, then cut over events (halves, then thirds), with text around the cuts.
    const texts = [`Whole: ${all}. Cut: `];
    const names: Array<string | null> = [key];
    for (const encoded of Object.values(encodings(key))) {
      for (const pieces of splits(encoded)) {
        pieces.forEach((p, i) => {
          texts.push(i === 0 ? `[${p}` : i === pieces.length - 1 ? `${p}] ` : p);
          names.push(null);
        });
      }
    }
    // The key as an event name, in one name and cut over two (chat's names are ignored by the app).
    const hex = encodings(key).HEX;
    names[1] = hex;
    names[2] = key.slice(0, 19);
    names[3] = key.slice(19);
    const sent = frames(family, texts, family === 'chat' ? names : []);
    void (async () => {
      for (const [i, frame] of sent.entries()) {
        // Chat pauses before the first half of the raw key for longer than a run's checkpoint
        // interval (1 s): the partial output checkpointed when it arrives ends in that half.
        if (family === 'chat' && texts[i] === `[${key.slice(0, 19)}`) await new Promise((r) => setTimeout(r, 1100));
        res.write(frame);
      }
      res.end();
    })();
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(parts).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    seen,
    imageUrl,
    videoUrl,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

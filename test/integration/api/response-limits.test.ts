/**
 * What a service sends back is bounded and decoded (issue 8, defects 2 and 3), against fake
 * services on loopback: huge error bodies (generated as they are sent, never held by the test),
 * a 10 MB single SSE event, a 50 MB line, a run's event log past its cap, and gzip / deflate / br
 * bodies, including a decompression bomb and an encoding the client cannot read.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { streamChatCompletion } from '../../../main/api/chat';
import { DEFAULT_LIMITS } from '../../../main/api/limits';
import type { ChatCompletionChunk } from '../../../shared/wire/chat';
import { useLocalClient } from '../../unit/main/api/local-client';

const MIB = 2 ** 20;
const CHAT = { model: 'svc-4', messages: [{ role: 'user' as const, content: 'hi' }] };

/**
 * Writes `total` bytes (`head`, then `fill` repeated, then `tail`) 64 KiB at a time as the socket
 * drains, and counts what the socket took: a client that cancels leaves most of it unwritten.
 */
function sendGenerated(res: ServerResponse, total: number, head: string, tail: string, fill = 'x'): { written: () => number } {
  let written = 0;
  const block = Buffer.alloc(64 * 1024, fill);
  let left = total - head.length - tail.length;
  res.on('error', () => undefined);
  res.write(head);
  written += head.length;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, block.length);
      left -= n;
      written += n;
      if (!res.write(n === block.length ? block : block.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(tail);
  };
  pump();
  return { written: () => written };
}

function chunk(content: string): string {
  const c: ChatCompletionChunk = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'svc-4', choices: [{ index: 0, delta: { content }, finish_reason: null }] } as ChatCompletionChunk;
  return `data: ${JSON.stringify(c)}\n\n`;
}

const CHAT_STREAM = `${chunk('Hello')}${chunk(', world')}data: [DONE]\n\n`;

/** Streams a chat completion, collecting the text it delivered and the raw events kept. */
async function streamChat(client: Parameters<typeof streamChatCompletion>[0]) {
  let text = '';
  let raw = 0;
  const outcome = await streamChatCompletion(client, CHAT, {
    onChunk: (c) => {
      text += c.choices[0]?.delta?.content ?? '';
    },
    onRawEvent: () => {
      raw++;
    },
  });
  return { outcome, text, raw };
}

describe('response caps', () => {
  const setup = useLocalClient();

  it('reads the first 1 MiB of a 100 MB error, cancels the rest, does not retry it, and says so', async () => {
    let sent: { written: () => number } | null = null;
    const { client, server } = await setup((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'content-length': String(100e6) });
      sent = sendGenerated(res, 100e6, '{"error":{"message":"', '"}}');
    });
    const rssBefore = process.memoryUsage.rss();
    const result = await client.json({ method: 'POST', path: '/v1/chat/completions', body: CHAT });
    const rssGrowth = process.memoryUsage.rss() - rssBefore;
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(server.received).toHaveLength(1);
    expect(result.retries).toBe(0);
    expect(result.error.kind).toBe('http');
    expect(result.error.status).toBe(503);
    expect(result.error.message).toMatch(/The service sent an error of 95\.4 MiB; the first 1 MiB is kept and the rest was not read\.$/);
    expect(typeof result.error.body).toBe('string');
    expect((result.error.body as string).length).toBe(DEFAULT_LIMITS.errorBodyBytes);
    expect(result.notices).toEqual([{ limit: 'error_body', message: expect.stringContaining('95.4 MiB') }]);
    // The socket was closed: the service could not push the 100 MB through it.
    await new Promise((r) => setTimeout(r, 200));
    expect(sent!.written()).toBeLessThan(40e6);
    expect(rssGrowth).toBeLessThan(64 * MIB);
  });

  it('says "more than 1 MB" for an error sent without a length', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      sendGenerated(res, 3 * MIB, '{"error":{"message":"', '"}}');
    });
    const result = await client.json({ method: 'GET', path: '/v1/models' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('The service sent an error of more than 1 MiB; the first 1 MiB is kept');
  });

  it('refuses a plain answer over its cap, keeping its head as text', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      sendGenerated(res, 5000, '{"data":"', '"}');
    });
    const limited = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      sendGenerated(res, 5000, '{"data":"', '"}');
    }, { limits: { jsonBodyBytes: 1000, errorBodyBytes: 100 } });
    expect((await client.json({ method: 'GET', path: '/v1/models' })).ok).toBe(true);
    const result = await limited.client.json({ method: 'GET', path: '/v1/models' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('protocol');
    expect(result.error.body).toBe(`{"data":"${'x'.repeat(91)}`);
    expect(result.notices?.[0]?.limit).toBe('json_body');
    expect(result.error.message).toContain('more than the 1000 bytes the workbench reads for one answer');
  });

  it('stops at a 10 MB single SSE event, keeping the output before it', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Before the big one'));
      sendGenerated(res, 10e6, 'data: {"choices":[{"index":0,"delta":{"content":"', '"}}]}\n\ndata: [DONE]\n\n');
    });
    const { outcome, text } = await streamChat(client);
    expect(text).toBe('Before the big one');
    expect(outcome.ok).toBe(false);
    expect(outcome.error?.kind).toBe('protocol');
    expect(outcome.error?.message).toBe('The service sent a single stream event of more than 4 MiB; the workbench stopped reading there. The output received before it is kept.');
    expect(outcome.notices?.map((n) => n.limit)).toEqual(['sse_event']);
  });

  it('stops at a 50 MB line without holding it', async () => {
    let sent: { written: () => number } | null = null;
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('ok'));
      sent = sendGenerated(res, 50e6, ': ', '\n\n');
    });
    const rssBefore = process.memoryUsage.rss();
    const { outcome, text } = await streamChat(client);
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(64 * MIB);
    expect(text).toBe('ok');
    expect(outcome.notices?.[0]?.limit).toBe('sse_event');
    await new Promise((r) => setTimeout(r, 200));
    expect(sent!.written()).toBeLessThan(20e6);
  });

  it('keeps a run\'s event log up to its cap and counts the rest, with the whole output', async () => {
    const deltas = Array.from({ length: 50 }, (_, i) => chunk(`w${i} `)).join('');
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${deltas}data: [DONE]\n\n`);
    }, { limits: { eventLogChars: 2000 } });
    const { outcome, text, raw } = await streamChat(client);
    expect(outcome.ok).toBe(true);
    expect(text.split(' ').filter(Boolean)).toHaveLength(50);
    const perEvent = chunk('w0 ').length - 'data: \n\n'.length;
    const kept = Math.floor(2000 / perEvent);
    expect(raw).toBe(kept);
    expect(outcome.notices).toEqual([
      { limit: 'event_log', message: `The stream's events passed 2 KiB: the inspector keeps the first ${kept} events; ${51 - kept} later ones were read (the output has them) but not kept.` },
    ]);
  });
});

describe('compressed answers', () => {
  const setup = useLocalClient();

  it('reads a gzip event stream to [DONE]', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      // Two gzip writes flushed apart: the client decodes as it goes, not only at the end.
      const body = gzipSync(CHAT_STREAM);
      res.write(body.subarray(0, 10));
      setTimeout(() => res.end(body.subarray(10)), 20);
    });
    const { outcome, text } = await streamChat(client);
    expect(outcome.error).toBeNull();
    expect(text).toBe('Hello, world');
  });

  it('shows the text of a gzip error', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ error: { message: 'temperature must be at most 2', code: 'invalid_argument' } })));
    });
    const result = await client.json({ method: 'POST', path: '/v1/chat/completions', body: CHAT });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toBe('The service rejected the request (400): temperature must be at most 2');
      expect(result.error.code).toBe('invalid_argument');
    }
  });

  it.each([
    ['deflate (zlib)', 'deflate', deflateSync],
    ['deflate (raw, as some servers send it)', 'deflate', deflateRawSync],
    ['br', 'br', brotliCompressSync],
    ['gzip then br', 'gzip, br', (b: Buffer) => brotliCompressSync(gzipSync(b))],
  ])('decodes a %s JSON answer', async (_name, encoding, encode) => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encode(Buffer.from(JSON.stringify({ object: 'list', data: [{ id: 'svc-4' }] }))));
    });
    const result = await client.json<{ data: Array<{ id: string }> }>({ method: 'GET', path: '/v1/models' });
    expect(result.ok && result.value.data[0]!.id).toBe('svc-4');
  });

  it('reads a br event stream', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'br' });
      res.end(brotliCompressSync(CHAT_STREAM));
    });
    expect((await streamChat(client)).text).toBe('Hello, world');
  });

  it('stops a decompression bomb at the cap with a clear error', async () => {
    const bomb = gzipSync(Buffer.alloc(100 * MIB, 10));
    expect(bomb.length).toBeLessThan(MIB);
    const { client } = await setup((req, res) => {
      res.writeHead(200, { 'content-type': req.url.includes('models') ? 'application/json' : 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const rssBefore = process.memoryUsage.rss();
    const plain = await client.json({ method: 'GET', path: '/v1/models' });
    const streamed = await streamChat(client);
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(128 * MIB);
    for (const [error, notices] of [
      [plain.ok ? null : plain.error, plain.notices],
      [streamed.outcome.error, streamed.outcome.notices],
    ] as const) {
      expect(error?.kind).toBe('protocol');
      expect(error?.message).toMatch(/^The service's gzip body expanded from .+ to over .+ \(more than 200 times\): it looks like a decompression bomb/);
      expect(notices?.[0]?.limit).toBe('decompression');
    }
  });

  it('says when a body is corrupt or in an encoding it cannot read', async () => {
    const { client } = await setup((req, res) => {
      const zstd = req.url.includes('zstd');
      res.writeHead(zstd ? 200 : 500, { 'content-type': 'application/json', 'content-encoding': zstd ? 'zstd' : 'gzip' });
      res.end(Buffer.from('this is not gzip at all'));
    }, { retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 } });
    const zstd = await client.json({ method: 'GET', path: '/v1/zstd' });
    expect(zstd.ok ? null : zstd.error.message).toBe('The service sent its answer encoded as "zstd", which the workbench cannot decode (it reads gzip, deflate and br).');
    const corrupt = await client.json({ method: 'GET', path: '/v1/models' });
    expect(corrupt.ok ? null : corrupt.error.message).toBe(
      "The service failed internally (500): no details given. Try again. The service's gzip body could not be decoded (incorrect header check).",
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createMessage, streamMessage } from '../../../../main/api/messages';
import { MessagesAssembler } from '../../../../main/api/messages-assembler';
import type { MessagesRequest, MessagesStreamEvent } from '../../../../shared/wire/messages';
import { useLocalClient } from './local-client';
import { openStream, sendJson } from './local-server';

const setup = useLocalClient();

const ev = (data: Record<string, unknown>): string => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const start = { id: 'm1', type: 'message', role: 'assistant', model: 'svc-4', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 40, output_tokens: 1, cache_read_input_tokens: 8, cache_creation_input_tokens: 0 } };

/** thinking (0), text (1), tool_use (2) with its input split over two deltas; then stop. */
const FRAMES = [
  ev({ type: 'message_start', message: start }),
  ev({ type: 'ping' }),
  ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } }),
  ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
  ev({ type: 'content_block_stop', index: 0 }),
  ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me ' } }),
  ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'check.' } }),
  ev({ type: 'content_block_stop', index: 1 }),
  ev({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call-1', name: 'weather', input: {} } }),
  ev({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":"Par' } }),
  ev({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'is"}' } }),
  ev({ type: 'content_block_stop', index: 2 }),
  ev({ type: 'brand_new_event', detail: 1 }),
  ev({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 57 } }),
  ev({ type: 'message_stop' }),
];

const body: MessagesRequest = { model: 'svc-4', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }] };

function collect() {
  const events: MessagesStreamEvent[] = [];
  return { events, handlers: { onEvent: (e: MessagesStreamEvent) => void events.push(e) } };
}

function assemble(events: MessagesStreamEvent[]) {
  const a = new MessagesAssembler();
  events.forEach((e) => a.push(e));
  return a.result();
}

describe('messages', () => {
  describe('streamMessage()', () => {
    it('ends ok on [DONE] and assembles blocks in index order with the tool input parsed', async () => {
      const { server, client } = await setup((_req, res) => {
        openStream(res);
        res.end(`${FRAMES.join('')}data: [DONE]\n\n`);
      });
      const c = collect();
      const outcome = await streamMessage(client, body, c.handlers);
      expect(outcome).toMatchObject({ ok: true, error: null });
      expect(JSON.parse(server.received[0].body)).toEqual({ ...body, stream: true });
      expect(assemble(c.events)).toEqual({
        ...start,
        stop_reason: 'tool_use',
        usage: { ...start.usage, output_tokens: 57 },
        content: [
          { type: 'thinking', thinking: 'Hmm.', signature: 'sig' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'call-1', name: 'weather', input: { city: 'Paris' } },
        ],
      });
    });

    it('also ends ok when message_stop is followed by the end of the body without [DONE]', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(FRAMES.join(''));
      });
      expect(await streamMessage(client, body, collect().handlers)).toMatchObject({ ok: true });
    });

    it('reports a cut stream as incomplete, keeping the raw tool input that does not parse', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(FRAMES.slice(0, 12).join(''));
      });
      const c = collect();
      const outcome = await streamMessage(client, body, c.handlers);
      expect(outcome.error).toMatchObject({ kind: 'stream_incomplete' });
      const partial = assemble(c.events);
      expect(partial.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
      expect(partial.content[2]).toMatchObject({ input: '{"city":"Par' });
      expect(partial.stop_reason).toBeNull();
    });

    it('turns an error event into the service message, and bad JSON into a protocol error', async () => {
      const { client } = await setup((_req, res, n) => {
        openStream(res);
        if (n === 0) res.end(FRAMES[0] + ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
        else res.end(`${FRAMES[0]}event: content_block_start\ndata: not json\n\n`);
      });
      const first = await streamMessage(client, body, collect().handlers);
      expect(first.error).toMatchObject({ kind: 'http', code: 'overloaded_error', message: 'The service reported an error mid-stream: Overloaded' });
      const second = await streamMessage(client, body, collect().handlers);
      expect(second.error).toMatchObject({ kind: 'protocol' });
    });
  });

  describe('createMessage()', () => {
    it('posts with stream: false and returns the Message', async () => {
      const message = { ...start, content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn' };
      const { server, client } = await setup((_req, res) => sendJson(res, 200, message));
      const r = await createMessage(client, { ...body, stream: true });
      expect(r.ok && r.value).toEqual(message);
      expect(server.received[0].url).toBe('/v1/messages');
      expect(JSON.parse(server.received[0].body).stream).toBe(false);
    });
  });

  describe('MessagesAssembler.toolCall()', () => {
    const parse = (frame: string) => JSON.parse(frame.split('data: ')[1]!) as MessagesStreamEvent;

    it('gives a tool_use block as a call with its streamed input joined, and nothing for other blocks', () => {
      const a = new MessagesAssembler();
      FRAMES.map(parse).forEach((e) => a.push(e));
      expect(a.toolCall(2)).toEqual({ id: 'call-1', name: 'weather', arguments: '{"city":"Paris"}' });
      expect(a.toolCall(1)).toBeNull();
      expect(a.toolCall(7)).toBeNull();
    });

    it("uses the start event's input when no delta came, and {} when that is empty", () => {
      const a = new MessagesAssembler();
      a.push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't0', name: 'f', input: { x: 1 } } } as MessagesStreamEvent);
      a.push({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'g', input: {} } } as MessagesStreamEvent);
      expect(a.toolCall(0)?.arguments).toBe('{"x":1}');
      expect(a.toolCall(1)?.arguments).toBe('{}');
    });
  });
});

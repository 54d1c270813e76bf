import { describe, expect, it } from 'vitest';
import type { MessagesResponse, MessagesStreamEvent } from '../../../../../shared/wire/messages';
import { MessagesAssembler } from '../../../../../main/api/messages-assembler';
import { countTokens } from '../../../../../main/sandbox/generate/tokenizer';
import { parseSse, readToEnd, streamPayloads, useHarness } from '../harness';

const h = useHarness();

const base = { model: 'svc-4', max_tokens: 1024, messages: [{ role: 'user', content: 'Explain sand dunes' }] };
const weather = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

async function rawStream(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await h.post('/v1/messages', { ...base, stream: true, ...body }, headers);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return res.text();
}

/** Rebuilds the final message from the events with the client's assembler (as an SDK does). */
function accumulate(events: Array<Record<string, any>>): MessagesResponse {
  const assembler = new MessagesAssembler();
  for (const e of events) assembler.push(e as MessagesStreamEvent);
  return assembler.result();
}

async function plain(body: Record<string, unknown>): Promise<MessagesResponse> {
  return (await (await h.post('/v1/messages', { ...base, ...body })).json()) as MessagesResponse;
}

describe('sandbox/routes/messages (streaming)', () => {
  it('sends event: + data: pairs naming the same type, then data: [DONE] without an event line', async () => {
    const frames = parseSse(await rawStream({}));
    expect(frames.at(-1)).toEqual({ data: '[DONE]' });
    for (const f of frames.slice(0, -1)) expect(f.event).toBe((JSON.parse(f.data) as { type: string }).type);
    const types = frames.slice(0, -1).map((f) => f.event);
    expect(types.slice(0, 3)).toEqual(['message_start', 'ping', 'content_block_start']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('builds up exactly the message the same request answers without streaming', async () => {
    const events = streamPayloads(await rawStream({}));
    expect(events[0].message).toMatchObject({ content: [], stop_reason: null, stop_sequence: null, usage: { output_tokens: 1 } });
    const streamed = accumulate(events);
    const expected = await plain({});
    expect({ ...streamed, id: '' }).toEqual({ ...expected, id: '', usage: { ...expected.usage, cache_read_input_tokens: streamed.usage.cache_read_input_tokens, input_tokens: streamed.usage.input_tokens } });
    expect(streamed.usage.input_tokens + streamed.usage.cache_read_input_tokens).toBe(expected.usage.input_tokens + expected.usage.cache_read_input_tokens);
  });

  it('indexes thinking 0 then text 1 on every start, delta and stop, with a signature_delta before the thinking block stops', async () => {
    const events = streamPayloads(await rawStream({ model: 'svc-3-mini' }));
    const blockEvents = events.filter((e) => e.type.startsWith('content_block_'));
    const thinking = blockEvents.filter((e) => e.index === 0);
    const text = blockEvents.filter((e) => e.index === 1);
    expect(thinking.length + text.length).toBe(blockEvents.length);
    expect(thinking[0].content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    expect(thinking.slice(1, -2).every((e) => e.delta.type === 'thinking_delta')).toBe(true);
    expect(thinking.at(-2)!.delta.type).toBe('signature_delta');
    expect(thinking.at(-2)!.delta.signature.length).toBeGreaterThan(0);
    expect(thinking.at(-1)!.type).toBe('content_block_stop');
    expect(text[0].content_block).toEqual({ type: 'text', text: '' });
    expect(text.slice(1, -1).every((e) => e.delta.type === 'text_delta')).toBe(true);
    // All of block 0 comes before any of block 1.
    expect(blockEvents.findIndex((e) => e.index === 1)).toBe(thinking.length);
    const m = accumulate(events);
    expect(m.content).toEqual((await plain({ model: 'svc-3-mini' })).content);
  });

  it('streams tool input as several input_json_delta pieces that join into the planned input', async () => {
    const body = { tools: [weather], tool_choice: { type: 'any' } };
    const events = streamPayloads(await rawStream(body));
    const start = events.find((e) => e.type === 'content_block_start')!;
    expect(start).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'get_weather', input: {} } });
    const pieces = events.filter((e) => e.type === 'content_block_delta');
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((e) => e.index === 0 && e.delta.type === 'input_json_delta')).toBe(true);
    expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use', stop_sequence: null } });
    expect(accumulate(events).content).toEqual((await plain(body)).content);
  });

  it('reports the stop sequence in message_delta', async () => {
    const events = streamPayloads(await rawStream({ stop_sequences: ['##'], messages: [{ role: 'user', content: 'Say "red ## blue"' }] }));
    expect(events.find((e) => e.type === 'message_delta')).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'stop_sequence', stop_sequence: '##' },
      usage: { output_tokens: countTokens('red ') },
    });
    expect(accumulate(events).content).toEqual([{ type: 'text', text: 'red ' }]);
  });

  it('drops the connection after the number of frames x-sandbox-fault asks for, without [DONE]', async () => {
    const res = await h.post('/v1/messages', { ...base, stream: true }, { 'x-sandbox-fault': 'drop-after=4' });
    expect(res.status).toBe(200);
    const { outcome, text } = await readToEnd(res);
    expect(outcome).toBe('reset');
    expect(parseSse(text).map((f) => f.event)).toEqual(['message_start', 'ping', 'content_block_start', 'content_block_delta']);
  });
});

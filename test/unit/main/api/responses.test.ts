import { describe, expect, it } from 'vitest';
import { compactResponses, createResponse, deleteResponse, retrieveResponse, streamResponse } from '../../../../main/api/responses';
import { ResponsesAssembler } from '../../../../main/api/responses-assembler';
import type { ResponseStreamEvent } from '../../../../shared/wire/responses';
import { useLocalClient } from './local-client';
import { openStream, sendJson } from './local-server';

const setup = useLocalClient();

let seq = 0;
const ev = (type: string, fields: Record<string, unknown> = {}): string => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
const base = { id: 'r1', object: 'response', created_at: 1_700_000_000, model: 'svc-4', status: 'in_progress', store: true, output: [], previous_response_id: null };
const msgItem = { type: 'message', id: 'msg_r1', role: 'assistant', status: 'in_progress', content: [] };

/** A full Responses stream: reasoning summary, text in two deltas, a function call, then completed. */
function fullStream(): string {
  seq = 0;
  const done = {
    ...base,
    status: 'completed',
    output: [
      { type: 'reasoning', id: 'rs_r1', status: 'completed', summary: [{ type: 'summary_text', text: 'Think.' }] },
      { ...msgItem, status: 'completed', content: [{ type: 'output_text', text: 'Hello there', logprobs: [], annotations: [] }] },
      { type: 'function_call', id: 'fc1', call_id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}', status: 'completed' },
    ],
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 2 } },
  };
  return [
    ev('response.created', { response: base }),
    ev('response.output_item.added', { output_index: 0, item: { type: 'reasoning', id: 'rs_r1', status: 'in_progress', summary: [] } }),
    ev('response.reasoning_summary_text.delta', { item_id: 'rs_r1', output_index: 0, summary_index: 0, delta: 'Think.' }),
    ev('response.output_item.added', { output_index: 1, item: msgItem }),
    ev('response.output_text.delta', { item_id: 'msg_r1', output_index: 1, content_index: 0, delta: 'Hello ', logprobs: [] }),
    ev('response.x_search_call.searching', { item_id: 'xs', output_index: 9 }),
    ev('response.output_text.delta', { item_id: 'msg_r1', output_index: 1, content_index: 0, delta: 'there', logprobs: [] }),
    ev('response.output_item.done', { output_index: 2, item: done.output[2] }),
    ev('response.completed', { response: done }),
    'data: [DONE]\n\n',
  ].join('');
}

function collect() {
  const events: ResponseStreamEvent[] = [];
  const raw: string[] = [];
  return { events, raw, handlers: { onEvent: (e: ResponseStreamEvent) => void events.push(e), onRawEvent: (e: { data: string }) => void raw.push(e.data) } };
}

const body = { model: 'svc-4', input: 'hi' };

describe('responses', () => {
  describe('streamResponse()', () => {
    it('delivers every event, unknown types included, and ends ok on [DONE] with stream: true sent', async () => {
      const { server, client } = await setup((_req, res) => {
        openStream(res);
        res.end(fullStream());
      });
      const c = collect();
      const outcome = await streamResponse(client, body, c.handlers);
      expect(outcome).toMatchObject({ ok: true, error: null });
      expect(c.events.map((e) => e.type)).toContain('response.x_search_call.searching');
      expect(c.raw.at(-1)).toBe('[DONE]');
      expect(JSON.parse(server.received[0].body)).toEqual({ ...body, stream: true });
      expect(server.received[0].url).toBe('/v1/responses');
    });

    it('reports a cut stream as incomplete and the assembler keeps the partial text', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(fullStream().split('event: response.x_search_call')[0]);
      });
      const c = collect();
      const outcome = await streamResponse(client, body, c.handlers);
      expect(outcome.error).toMatchObject({ kind: 'stream_incomplete' });
      const a = new ResponsesAssembler();
      c.events.forEach((e) => a.push(e));
      const result = a.result();
      expect(result.id).toBe('r1');
      expect(result.output).toEqual([
        { type: 'reasoning', id: 'rs_r1', status: 'in_progress', summary: [{ type: 'summary_text', text: 'Think.' }] },
        { ...msgItem, content: [{ type: 'output_text', text: 'Hello ', logprobs: [], annotations: [] }] },
      ]);
    });

    it('turns a data line that is not JSON into a protocol error', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(`${ev('response.created', { response: base })}data: {oops\n\n`);
      });
      const c = collect();
      const outcome = await streamResponse(client, body, c.handlers);
      expect(outcome.error).toMatchObject({ kind: 'protocol', message: expect.stringContaining('{oops') });
      expect(c.events).toHaveLength(1);
    });

    it('turns an error event into the service message, and response.failed into its error', async () => {
      const { client } = await setup((_req, res, n) => {
        openStream(res);
        if (n === 0) res.end(`${ev('response.created', { response: base })}${ev('error', { code: 'overloaded', message: 'Engine busy', param: null })}`);
        else res.end(ev('response.failed', { response: { ...base, status: 'failed', error: { code: 'server_error', message: 'model crashed' } } }));
      });
      const first = await streamResponse(client, body, collect().handlers);
      expect(first.error).toMatchObject({ kind: 'http', code: 'overloaded', message: 'The service reported an error mid-stream: Engine busy' });
      const c = collect();
      const second = await streamResponse(client, body, c.handlers);
      expect(second.error).toMatchObject({ kind: 'http', code: 'server_error', message: expect.stringContaining('model crashed') });
      expect(c.events.map((e) => e.type)).toEqual(['response.failed']);
    });
  });

  describe('ResponsesAssembler', () => {
    it('gives the final response of response.completed when the stream finished', async () => {
      const { client } = await setup((_req, res) => {
        openStream(res);
        res.end(fullStream());
      });
      const c = collect();
      await streamResponse(client, body, c.handlers);
      const a = new ResponsesAssembler();
      c.events.forEach((e) => a.push(e));
      expect(a.result()).toMatchObject({ id: 'r1', status: 'completed', usage: { input_tokens: 10 } });
      expect(a.result().output).toHaveLength(3);
    });

    it('builds function call arguments from argument deltas when no done item came', () => {
      const a = new ResponsesAssembler();
      a.push({ type: 'response.output_item.added', sequence_number: 0, output_index: 0, item: { type: 'function_call', id: 'f', call_id: 'c', name: 'n', arguments: '', status: 'in_progress' } });
      a.push({ type: 'response.function_call_arguments.delta', sequence_number: 1, item_id: 'f', output_index: 0, delta: '{"a":' });
      a.push({ type: 'response.function_call_arguments.delta', sequence_number: 2, item_id: 'f', output_index: 0, delta: '1}' });
      expect(a.result().output).toEqual([{ type: 'function_call', id: 'f', call_id: 'c', name: 'n', arguments: '{"a":1}', status: 'in_progress' }]);
    });
  });

  describe('createResponse() / retrieveResponse() / deleteResponse() / compactResponses()', () => {
    it('sends each request to its path and method, with stream: false on create', async () => {
      const { server, client } = await setup((req, res) => {
        if (req.method === 'DELETE') sendJson(res, 200, { id: 'r 1', object: 'response', deleted: true });
        else if (req.url.endsWith('/compact')) sendJson(res, 200, { id: 'cmp_1', object: 'response.compaction', output: [] });
        else sendJson(res, 200, base);
      });
      expect((await createResponse(client, { ...body, stream: true })).ok).toBe(true);
      expect((await retrieveResponse(client, 'r 1')).ok).toBe(true);
      const deleted = await deleteResponse(client, 'r 1');
      expect(deleted.ok && deleted.value.deleted).toBe(true);
      const compacted = await compactResponses(client, { model: 'svc-4', input: 'x' });
      expect(compacted.ok && compacted.value.id).toBe('cmp_1');
      expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /v1/responses',
        'GET /v1/responses/r%201',
        'DELETE /v1/responses/r%201',
        'POST /v1/responses/compact',
      ]);
      expect(JSON.parse(server.received[0].body)).toEqual({ ...body, stream: false });
    });

    it('reports a 404 with the service message and request id', async () => {
      const { client } = await setup((_req, res) => sendJson(res, 404, { code: 'not_found', error: 'Response r9 was deleted' }, { 'x-request-id': 'rq-9' }));
      const r = await retrieveResponse(client, 'r9');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.error).toMatchObject({ kind: 'http', status: 404, requestId: 'rq-9', message: expect.stringContaining('Response r9 was deleted') });
    });
  });
});

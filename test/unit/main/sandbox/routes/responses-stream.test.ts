import { describe, expect, it } from 'vitest';
import type { ResponseObject } from '../../../../../shared/wire/responses';
import { parseSse, readToEnd, streamPayloads, useHarness } from '../harness';

const h = useHarness();

async function streamRaw(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const res = await h.post('/v1/responses', { model: 'svc-4', stream: true, ...body }, headers);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return res.text();
}

async function events(body: Record<string, unknown>): Promise<Array<Record<string, any>>> {
  return streamPayloads(await streamRaw(body));
}

/** Event types with runs of deltas collapsed, so the order reads like wire-notes §1.3. */
function shape(evs: Array<Record<string, any>>): string[] {
  return evs.map((e) => e.type as string).filter((t, i, all) => !(t.endsWith('.delta') && all[i - 1] === t));
}

describe('sandbox/routes/responses (streaming)', () => {
  it('sends event: + data: frames numbered from 0, ending with [DONE] after response.completed', async () => {
    const frames = parseSse(await streamRaw({ input: 'Explain rainbows' }));
    expect(frames.at(-1)).toEqual({ data: '[DONE]' });
    const payloads = frames.slice(0, -1).map((f) => ({ event: f.event, body: JSON.parse(f.data) as Record<string, any> }));
    expect(payloads.every((p) => p.event === p.body.type)).toBe(true);
    expect(payloads.map((p) => p.body.sequence_number)).toEqual(payloads.map((_, i) => i));
  });

  it('streams a message as added, content part, deltas, done events; text equals the plain answer', async () => {
    const evs = await events({ input: 'Explain rainbows' });
    expect(shape(evs)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(evs[0].response).toMatchObject({ status: 'in_progress', output: [], usage: null, completed_at: null });
    const id = evs[0].response.id as string;
    const deltas = evs.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas.every((d) => d.item_id === `msg_${id}` && d.output_index === 0 && d.content_index === 0)).toBe(true);
    const streamed = deltas.map((d) => d.delta).join('');
    expect(evs.find((e) => e.type === 'response.output_text.done')!.text).toBe(streamed);
    const done = evs.at(-1)!.response as ResponseObject;
    expect(done.status).toBe('completed');
    expect(done.usage!.output_tokens).toBe(deltas.length);
    const plain = (await (await h.post('/v1/responses', { model: 'svc-4', input: 'Explain rainbows' })).json()) as ResponseObject;
    const msg = plain.output[0];
    expect(msg.type === 'message' && msg.content[0].type === 'output_text' ? msg.content[0].text : null).toBe(streamed);
  });

  it('streams the reasoning summary before the message on the reasoning model', async () => {
    const evs = await events({ model: 'svc-3-mini', input: 'Why do cats purr?' });
    expect(shape(evs)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const summary = evs.filter((e) => e.type === 'response.reasoning_summary_text.delta').map((e) => e.delta).join('');
    expect(evs.find((e) => e.type === 'response.reasoning_summary_text.done')!.text).toBe(summary);
    expect(evs[2].item).toMatchObject({ type: 'reasoning', status: 'in_progress', summary: [] });
    expect(evs.find((e) => e.type === 'response.output_item.done')!.item.summary).toEqual([{ type: 'summary_text', text: summary }]);
    expect(evs.filter((e) => e.type === 'response.output_item.added').map((e) => e.output_index)).toEqual([0, 1]);
  });

  it('sends function calls whole in output_item.added / done', async () => {
    const tool = { type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } };
    const evs = await events({ input: 'Hi', tools: [tool], tool_choice: 'required' });
    expect(shape(evs)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(evs[2].item).toMatchObject({ type: 'function_call', name: 'lookup', status: 'in_progress', arguments: expect.stringContaining('"q"') });
    expect(evs[3].item).toMatchObject({ type: 'function_call', status: 'completed', call_id: evs[2].item.call_id });
  });

  it('ends with response.incomplete at max_output_tokens', async () => {
    const evs = await events({ input: 'Explain rainbows', max_output_tokens: 4 });
    expect(evs.at(-1)!.type).toBe('response.incomplete');
    expect(evs.at(-1)!.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(evs.filter((e) => e.type === 'response.output_text.delta')).toHaveLength(4);
  });

  it('adds url_citation annotations when search is on', async () => {
    const evs = await events({ input: 'Latest news about tides', search_parameters: { mode: 'on', max_search_results: 3 } });
    const added = evs.filter((e) => e.type === 'response.output_text.annotation.added');
    expect(added.map((e) => e.annotation_index)).toEqual([0, 1, 2]);
    const text = evs.find((e) => e.type === 'response.output_text.done')!.text as string;
    for (const { annotation } of added) {
      expect(annotation).toMatchObject({ type: 'url_citation', url: expect.stringMatching(/^https:\/\/sandbox\.invalid\//), title: expect.stringMatching(/^Synthetic source/) });
      expect(text.slice(annotation.start_index, annotation.end_index)).toBe(`[${annotation.title}](${annotation.url})`);
    }
    expect(evs.at(-1)!.response.usage.num_sources_used).toBe(3);
  });

  it('stops after drop-after frames without [DONE]', async () => {
    const res = await h.post('/v1/responses', { model: 'svc-4', stream: true, input: 'Explain rainbows' }, { 'x-sandbox-fault': 'drop-after=5' });
    const { outcome, text } = await readToEnd(res);
    expect(outcome).toBe('reset');
    const frames = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
    expect(frames.map((f) => f.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ]);
    expect(text).not.toContain('[DONE]');
  });
});

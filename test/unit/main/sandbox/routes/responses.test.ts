import { describe, expect, it } from 'vitest';
import type { ResponseObject } from '../../../../../shared/wire/responses';
import { useHarness } from '../harness';
import { schemaErrors } from '../schema-check';

const h = useHarness();

async function create(body: Record<string, unknown>, status = 200): Promise<ResponseObject> {
  const res = await h.post('/v1/responses', { model: 'svc-4', ...body });
  const json = (await res.json()) as ResponseObject & { error?: string };
  expect(res.status, JSON.stringify(json)).toBe(status);
  return json;
}

async function refused(body: Record<string, unknown>): Promise<{ status: number; error: string }> {
  const res = await h.post('/v1/responses', { model: 'svc-4', ...body });
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

function text(r: ResponseObject): string {
  const msg = r.output.find((i) => i.type === 'message');
  return msg && msg.type === 'message' ? msg.content.map((p) => (p.type === 'output_text' ? p.text : '')).join('') : '';
}

const weather = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } }, required: ['city', 'unit'] },
};
const time = { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

describe('sandbox/routes/responses', () => {
  describe('POST /v1/responses', () => {
    it('answers a string input with a completed response carrying every spec field', async () => {
      const r = await create({ input: 'Say "hello there"' });
      expect(r).toMatchObject({
        object: 'response',
        status: 'completed',
        model: 'svc-4',
        background: false,
        store: true,
        error: null,
        incomplete_details: null,
        instructions: null,
        previous_response_id: null,
        parallel_tool_calls: true,
        reasoning: { effort: null, summary: null },
        text: { format: { type: 'text' } },
        tool_choice: 'auto',
        tools: [],
        top_logprobs: 0,
        metadata: {},
      });
      expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(r.completed_at).toBeGreaterThanOrEqual(r.created_at);
      expect(r.output).toEqual([
        { id: `msg_${r.id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hello there', logprobs: [], annotations: [] }] },
      ]);
    });

    it('reports usage with every spec field and a cost from the catalogue prices', async () => {
      const r = await create({ input: 'Explain tide pools' });
      const u = r.usage!;
      expect(Object.keys(u).sort()).toEqual(
        [
          'input_tokens', 'input_tokens_details', 'output_tokens', 'output_tokens_details', 'total_tokens', 'num_sources_used',
          'num_server_side_tools_used', 'cost_in_usd_ticks', 'cost_in_nano_usd', 'context_details', 'server_side_tool_usage_details',
        ].sort(),
      );
      expect(u.total_tokens).toBe(u.input_tokens + u.output_tokens);
      // svc-4: $3 / 1M prompt tokens, $15 / 1M output tokens (ticks = tokens * cents-per-100M price).
      expect(u.cost_in_usd_ticks).toBe(u.input_tokens * 30_000 + u.output_tokens * 150_000);
      expect(u.cost_in_nano_usd).toBe(u.cost_in_usd_ticks! / 10);
      expect(u.context_details).toEqual({ input_tokens: u.input_tokens, output_tokens: u.output_tokens });
      expect(u.server_side_tool_usage_details.web_search_calls).toBe(0);
    });

    it('accepts an item array with system, developer and assistant messages and content parts', async () => {
      const r = await create({
        input: [
          { role: 'system', content: 'Be brief' },
          { role: 'developer', content: [{ type: 'input_text', text: 'Use plain words' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Reply with pong' }] },
        ],
      });
      expect(text(r)).toBe('pong');
    });

    it('treats instructions as a system prompt and echoes them', async () => {
      const a = await create({ input: 'Explain tide pools' });
      const b = await create({ input: 'Explain tide pools', instructions: 'Answer in one short paragraph' });
      expect(b.instructions).toBe('Answer in one short paragraph');
      expect(b.usage!.input_tokens).toBeGreaterThan(a.usage!.input_tokens);
    });

    it('gives a reasoning item with a summary on the reasoning model, before the message', async () => {
      const r = await create({ model: 'svc-3-mini', input: 'Why do cats purr?' });
      expect(r.output.map((i) => i.type)).toEqual(['reasoning', 'message']);
      const rs = r.output[0];
      if (rs.type !== 'reasoning') throw new Error('expected reasoning');
      expect(rs.id).toBe(`rs_${r.id}`);
      expect(rs.summary).toEqual([{ type: 'summary_text', text: expect.stringMatching(/^First, the question is about/) }]);
      expect(r.reasoning).toEqual({ effort: 'low', summary: 'detailed' });
      expect(r.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    });

    it('spends more reasoning with higher effort, from reasoning.effort or reasoning_effort', async () => {
      const low = await create({ model: 'svc-3-mini', input: 'Why do cats purr?', reasoning: { effort: 'low' } });
      const high = await create({ model: 'svc-3-mini', input: 'Why do cats purr?', reasoning: { effort: 'high' } });
      const alt = await create({ model: 'svc-3-mini', input: 'Why do cats purr?', reasoning_effort: 'high' });
      const none = await create({ model: 'svc-3-mini', input: 'Why do cats purr?', reasoning: { effort: 'none' } });
      expect(high.usage!.output_tokens_details.reasoning_tokens).toBeGreaterThan(low.usage!.output_tokens_details.reasoning_tokens);
      expect(alt.reasoning.effort).toBe('high');
      expect(alt.usage!.output_tokens_details.reasoning_tokens).toBe(high.usage!.output_tokens_details.reasoning_tokens);
      expect(none.output.map((i) => i.type)).toEqual(['message']);
    });

    it('stops at max_output_tokens with status incomplete, counting reasoning', async () => {
      const r = await create({ input: 'Explain tide pools', max_output_tokens: 5 });
      expect(r.status).toBe('incomplete');
      expect(r.incomplete_details).toEqual({ reason: 'max_output_tokens' });
      expect(r.completed_at).toBeNull();
      expect(r.usage!.output_tokens).toBe(5);
      expect(r.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
      const reasoning = await create({ model: 'svc-3-mini', input: 'Why do cats purr?', max_output_tokens: 10 });
      expect(reasoning.status).toBe('incomplete');
      expect(reasoning.usage!.output_tokens).toBe(10);
      expect(reasoning.usage!.output_tokens_details.reasoning_tokens).toBe(10);
      expect(reasoning.output.map((i) => i.type)).toEqual(['reasoning']);
    });

    it('answers json_schema text.format with JSON valid against the schema', async () => {
      const schema = {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' }, minItems: 1 } },
        required: ['name', 'age', 'tags'],
        additionalProperties: false,
      };
      const r = await create({ input: 'Describe a person', text: { format: { type: 'json_schema', name: 'person', schema, strict: true } } });
      expect(schemaErrors(schema, JSON.parse(text(r)))).toEqual([]);
      expect(r.text.format).toMatchObject({ type: 'json_schema', name: 'person' });
      const obj = await create({ input: 'Describe a person', text: { format: { type: 'json_object' } } });
      expect(typeof JSON.parse(text(obj))).toBe('object');
    });
  });

  describe('POST /v1/responses with tools', () => {
    it('calls a mentioned function with a call_ id and arguments valid against its parameters', async () => {
      const r = await create({ input: 'What is the get_weather in Lisbon?', tools: [weather] });
      expect(r.output).toHaveLength(1);
      const call = r.output[0];
      if (call.type !== 'function_call') throw new Error('expected function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
      expect(call.call_id).toMatch(/^call_/);
      expect(schemaErrors(weather.parameters, JSON.parse(call.arguments))).toEqual([]);
    });

    it('uses a function_call_output in the next turn of the chain', async () => {
      const first = await create({ input: 'Check the weather please', tools: [weather], tool_choice: 'required' });
      const call = first.output[0];
      if (call.type !== 'function_call') throw new Error('expected function_call');
      const second = await create({
        previous_response_id: first.id,
        tools: [weather],
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 21, "sky": "clear"}' }],
      });
      expect(second.output.map((i) => i.type)).toEqual(['message']);
      expect(text(second)).toContain('The `get_weather` tool returned: {"temperature": 21, "sky": "clear"}');
    });

    it('accepts prior output items passed back verbatim instead of previous_response_id', async () => {
      const first = await create({ input: 'Check the weather please', tools: [weather], tool_choice: 'required' });
      const call = first.output[0];
      if (call.type !== 'function_call') throw new Error('expected function_call');
      const second = await create({
        tools: [weather],
        input: [
          { role: 'user', content: 'Check the weather please' },
          ...first.output,
          { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
        ],
      });
      expect(text(second)).toContain('The `get_weather` tool returned: sunny');
    });

    it('refuses a function_call_output whose call_id is not in the conversation', async () => {
      const r = await refused({ input: [{ type: 'function_call_output', call_id: 'call_nope', output: 'x' }] });
      expect(r.status).toBe(400);
      expect(r.error).toMatch(/^No function call with call_id call_nope is in this conversation/);
    });

    it('follows tool_choice none, a named function, and parallel_tool_calls false', async () => {
      const none = await create({ input: 'get_weather and get_time for Paris', tools: [weather, time], tool_choice: 'none' });
      expect(none.output.map((i) => i.type)).toEqual(['message']);
      const both = await create({ input: 'get_weather and get_time for Paris', tools: [weather, time] });
      expect(both.output.map((i) => (i.type === 'function_call' ? i.name : i.type))).toEqual(['get_weather', 'get_time']);
      expect(new Set(both.output.map((i) => i.id)).size).toBe(2);
      const one = await create({ input: 'get_weather and get_time for Paris', tools: [weather, time], parallel_tool_calls: false });
      expect(one.output).toHaveLength(1);
      expect(one.parallel_tool_calls).toBe(false);
      const capped = await create({ input: 'get_weather and get_time for Paris', tools: [weather, time], max_tool_calls: 1 });
      expect(capped.output.map((i) => (i.type === 'function_call' ? i.name : i.type))).toEqual(['get_weather']);
      expect(capped.max_tool_calls).toBe(1);
      const named = await create({ input: 'Hello', tools: [weather, time], tool_choice: { type: 'function', name: 'get_time' } });
      expect(named.output.map((i) => (i.type === 'function_call' ? i.name : i.type))).toEqual(['get_time']);
    });
  });

  describe('errors', () => {
    it.each([
      [{ input: 'x', temperature: 3 }, 400, 'temperature must be between 0 and 2'],
      [{ input: 'x', instructions: 'a', previous_response_id: 'b' }, 400, 'instructions cannot be used together with previous_response_id'],
      [{ input: 'x', reasoning: { effort: 'high' } }, 400, 'reasoning.effort is only supported by reasoning models; remove it or pick a reasoning model'],
      [{ model: 'svc-3-mini', input: 'x', presence_penalty: 1 }, 400, 'presence_penalty is not supported by reasoning models; remove it or pick another model'],
      [{ input: 'x', max_output_tokens: 0 }, 400, 'max_output_tokens must be a positive integer (1 or more)'],
      [{ input: 5 }, 422, 'input must be a string or an array of input items'],
      [{ input: 'x', tools: [{ type: 'function', function: { name: 'f' } }] }, 422, 'tools[0].name is required (responses tools are flat'],
      [{ input: 'x', reasoning: { effort: 'max' } }, 422, 'reasoning.effort must be one of "none", "low", "medium", "high"'],
      [{ model: 'svc-404', input: 'x' }, 404, 'The model svc-404 does not exist or your team does not have access to it.'],
      [{ model: 'svc-3-mini', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AA' }] }] }, 400, 'The model svc-3-mini does not accept image input'],
    ])('answers %j with %i and a clear message', async (body, status, message) => {
      const r = await refused(body);
      expect(r.status).toBe(status);
      expect(r.error).toContain(message);
    });
  });
});

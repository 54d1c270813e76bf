/**
 * Conformance: the official `openai` SDK's Responses API against the sandbox. Each test reads the
 * fields the SDK parsed (output_text, output items, stream events, usage), so a wire shape the SDK
 * cannot read, or an error it maps to the wrong class, fails here.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';
import { schemaErrors } from '../unit/main/sandbox/schema-check';

const KEY = 'sk-conformance-openai-responses-01';
const DAY = 86_400_000;
let now = Date.UTC(2026, 5, 1);
let sandbox: SandboxServer;
let client: OpenAI;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY], now: () => now });
  client = new OpenAI({ apiKey: KEY, baseURL: `${sandbox.url}/v1`, maxRetries: 0 });
});
afterAll(() => sandbox.close());

/** Service extension of the usage object that the SDK types do not declare. */
type ServiceUsage = OpenAI.Responses.ResponseUsage & { cost_in_usd_ticks: number; num_sources_used: number; cost_in_nano_usd: number };

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

describe('openai SDK responses against the sandbox', () => {
  it('creates a plain response and reads output_text, status and usage with cost', async () => {
    const r = await client.responses.create({ model: 'svc-4', input: 'Say "hello from responses"' });
    expect(r.output_text).toBe('hello from responses');
    expect(r.status).toBe('completed');
    expect(r.output[0]).toMatchObject({ type: 'message', id: `msg_${r.id}`, role: 'assistant' });
    const usage = r.usage as ServiceUsage;
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage.cost_in_usd_ticks).toBeGreaterThan(0);
  });

  it('streams events in order with sequence numbers from 0, and the deltas add up to the final text', async () => {
    const stream = await client.responses.create({ model: 'svc-3-mini', input: 'Describe a harbour at dawn', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0].type).toBe('response.created');
    expect(events[1].type).toBe('response.in_progress');
    expect(events.at(-1)!.type).toBe('response.completed');
    const types = events.map((e) => e.type);
    expect(types.indexOf('response.reasoning_summary_text.delta')).toBeLessThan(types.indexOf('response.output_text.delta'));
    let text = '';
    for (const e of events) if (e.type === 'response.output_text.delta') text += e.delta;
    const done = events.find((e): e is OpenAI.Responses.ResponseTextDoneEvent => e.type === 'response.output_text.done');
    expect(done!.text).toBe(text);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    const message = completed.response.output.find((o): o is OpenAI.Responses.ResponseOutputMessage => o.type === 'message');
    expect(message!.content).toEqual([{ type: 'output_text', text, logprobs: [], annotations: [] }]);
    expect(completed.response.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
  });

  it('continues a conversation with previous_response_id: the second turn sees the first', async () => {
    const first = await client.responses.create({ model: 'svc-4', input: 'Say "the password is swordfish"' });
    const second = await client.responses.create({ model: 'svc-4', previous_response_id: first.id, input: 'What did I say earlier?' });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toContain('You said: "Say "the password is swordfish""');
    expect(second.output_text).toContain('I replied: "the password is swordfish"');
  });

  it('round-trips a function tool: function_call, function_call_output, final message', async () => {
    const first = await client.responses.create({ model: 'svc-4', input: 'What is the weather in Oslo?', tools: [weather], tool_choice: 'required' });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');
    expect(call).toBeDefined();
    expect(call!.call_id).toMatch(/^call_/);
    expect(schemaErrors(weather.parameters!, JSON.parse(call!.arguments))).toEqual([]);
    const second = await client.responses.create({
      model: 'svc-4',
      previous_response_id: first.id,
      tools: [weather],
      input: [{ type: 'function_call_output', call_id: call!.call_id, output: '{"temp_c": 4, "sky": "snow"}' }],
    });
    expect(second.output.map((o) => o.type)).toEqual(['message']);
    expect(second.output_text).toContain('{"temp_c": 4, "sky": "snow"}');
  });

  it('retrieves a stored response, deletes it, and then retrieve throws NotFoundError', async () => {
    const r = await client.responses.create({ model: 'svc-4-fast', input: 'Say "keep me"' });
    const got = await client.responses.retrieve(r.id);
    expect(got.id).toBe(r.id);
    expect(got.output_text).toBe('keep me');
    await client.responses.delete(r.id);
    const err = await client.responses.retrieve(r.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain(`Response ${r.id} was deleted`);
  });

  it('forgets stored responses after 30 days on the sandbox clock', async () => {
    const r = await client.responses.create({ model: 'svc-4', input: 'Say "short-lived"' });
    now += 29 * DAY;
    expect((await client.responses.retrieve(r.id)).id).toBe(r.id);
    now += DAY;
    const err = await client.responses.retrieve(r.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as Error).message).toContain('stored responses are deleted 30 days after creation');
    const cont = await client.responses.create({ model: 'svc-4', previous_response_id: r.id, input: 'Hi' }).catch((e: unknown) => e);
    expect(cont).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('refuses instructions together with previous_response_id as BadRequestError', async () => {
    const first = await client.responses.create({ model: 'svc-4', input: 'Say one' });
    const err = await client.responses.create({ model: 'svc-4', previous_response_id: first.id, instructions: 'Be brief', input: 'two' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('instructions cannot be used together with previous_response_id');
  });

  it('compacts a conversation and continues from the compaction item', async () => {
    const long = (topic: string) => `Let us talk about ${topic}. ${'It has a long history, many uses, and a lot of detail worth knowing. '.repeat(5)}`;
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: long('canals') },
      { role: 'assistant', content: long('locks and barges') },
    ];
    const compacted = await client.responses.compact({ model: 'svc-4', input });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output).toHaveLength(1);
    const item = compacted.output[0] as OpenAI.Responses.ResponseCompactionItem;
    expect(item.type).toBe('compaction');
    expect((compacted.usage as unknown as { dropped_message_count: number }).dropped_message_count).toBe(2);
    const question: OpenAI.Responses.ResponseInputItem = { role: 'user', content: 'What did we discuss so far?' };
    const full = await client.responses.create({ model: 'svc-4', input: [...input, question] });
    const next = await client.responses.create({ model: 'svc-4', input: [{ type: 'compaction', id: item.id, encrypted_content: item.encrypted_content }, question] });
    expect(next.output_text).toContain('From the compacted context: Compacted context (2 earlier messages): user: Let us talk about canals.');
    expect(next.usage!.input_tokens).toBeLessThan(full.usage!.input_tokens);
  });
});

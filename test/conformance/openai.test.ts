/**
 * Conformance: the official `openai` SDK against the sandbox. Each test asserts the fields the
 * SDK parsed (content, finish reasons, tool calls, usage and cost, schema validity), so a wire
 * shape the SDK cannot read fails here.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';
import { schemaErrors } from '../unit/main/sandbox/schema-check';

const KEY = 'sk-conformance-openai-01';
let sandbox: SandboxServer;
let client: OpenAI;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  client = new OpenAI({ apiKey: KEY, baseURL: `${sandbox.url}/v1`, maxRetries: 2 });
});
afterAll(() => sandbox.close());

/** Service extension of the usage object that the SDK types do not declare. */
type ServiceUsage = OpenAI.CompletionUsage & { cost_in_usd_ticks: number; num_sources_used: number };

describe('openai SDK against the sandbox', () => {
  describe('models', () => {
    it('lists the models and retrieves one by alias', async () => {
      const ids: string[] = [];
      for await (const m of client.models.list()) ids.push(m.id);
      expect(ids).toEqual(['svc-4', 'svc-4-fast', 'svc-3-mini', 'svc-image-1', 'svc-video-1', 'svc-video-1-audio', 'svc-voice-latest', 'svc-voice-think-fast-2.0', 'svc-voice-think-fast-1.0', 'svc-voice-fast-1.0']);
      const model = await client.models.retrieve('svc-mini');
      expect(model).toMatchObject({ id: 'svc-3-mini', object: 'model', owned_by: 'sandbox' });
    });

    it('surfaces a 404 for an unknown model as NotFoundError with the service message', async () => {
      const err = await client.models.retrieve('svc-404').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as Error).message).toContain('The model svc-404 does not exist or your team does not have access to it.');
    });
  });

  describe('chat.completions.create', () => {
    it('answers a plain request with content, finish_reason and cost', async () => {
      const c = await client.chat.completions.create({ model: 'svc-4', messages: [{ role: 'user', content: 'Say "hello from the sandbox"' }] });
      expect(c.choices[0].message.content).toBe('hello from the sandbox');
      expect(c.choices[0].finish_reason).toBe('stop');
      const usage = c.usage as ServiceUsage;
      expect(usage.completion_tokens).toBeGreaterThan(0);
      expect(usage.cost_in_usd_ticks).toBeGreaterThan(0);
      expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    });

    it('streams with include_usage: text deltas add up and a usage chunk with choices [] comes last', async () => {
      const stream = await client.chat.completions.create({
        model: 'svc-4-fast',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Describe a harbour at dawn' }],
      });
      let text = '';
      const finishes: Array<string | null> = [];
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        for (const choice of chunk.choices) {
          text += choice.delta.content ?? '';
          finishes.push(choice.finish_reason);
        }
      }
      expect(text).toMatch(/synthetic/i);
      expect(finishes.at(-1)).toBe('stop');
      const last = chunks.at(-1)!;
      expect(last.choices).toEqual([]);
      expect((last.usage as ServiceUsage).cost_in_usd_ticks).toBeGreaterThan(0);
      expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    });

    it('returns n: 2 choices, indexed', async () => {
      const c = await client.chat.completions.create({ model: 'svc-4', n: 2, messages: [{ role: 'user', content: 'Name a mountain' }] });
      expect(c.choices.map((x) => x.index)).toEqual([0, 1]);
      expect(c.choices.every((x) => typeof x.message.content === 'string' && x.message.content.length > 0)).toBe(true);
    });

    it('answers with a tool call whose arguments are JSON matching the schema', async () => {
      const parameters = {
        type: 'object',
        properties: { location: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
        required: ['location', 'days'],
        additionalProperties: false,
      };
      const c = await client.chat.completions.create({
        model: 'svc-4',
        tools: [{ type: 'function', function: { name: 'forecast', description: 'Weather forecast', parameters } }],
        messages: [{ role: 'user', content: 'Use forecast for Lisbon' }],
      });
      const choice = c.choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls![0];
      expect(call.type).toBe('function');
      if (call.type !== 'function') throw new Error('not a function call');
      expect(call.function.name).toBe('forecast');
      expect(schemaErrors(parameters, JSON.parse(call.function.arguments))).toEqual([]);

      const followUp = await client.chat.completions.create({
        model: 'svc-4',
        messages: [
          { role: 'user', content: 'Use forecast for Lisbon' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' },
        ],
      });
      expect(followUp.choices[0].message.content).toContain('{"sky":"sunny"}');
    });

    it('answers JSON valid against a json_schema response_format', async () => {
      const schema = {
        type: 'object',
        properties: {
          city: { type: 'string' },
          population: { type: 'integer', minimum: 0 },
          landmarks: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 },
          coastal: { type: 'boolean' },
        },
        required: ['city', 'population', 'landmarks', 'coastal'],
        additionalProperties: false,
      };
      const c = await client.chat.completions.create({
        model: 'svc-4',
        response_format: { type: 'json_schema', json_schema: { name: 'city', schema, strict: true } },
        messages: [{ role: 'user', content: 'Describe Porto' }],
      });
      expect(schemaErrors(schema, JSON.parse(c.choices[0].message.content!))).toEqual([]);
    });

    it('surfaces the sandbox 400 message for a bad temperature', async () => {
      const err = await client.chat.completions
        .create({ model: 'svc-4', temperature: 2.5, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
      expect((err as Error).message).toContain('temperature must be between 0 and 2');
      expect((err as InstanceType<typeof OpenAI.BadRequestError>).requestID).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('retries an injected 429 using retry-after-ms and then succeeds', async () => {
      const c = await client.chat.completions.create(
        { model: 'svc-4', messages: [{ role: 'user', content: 'Say retried' }] },
        { headers: { 'x-sandbox-fault': 'status=429;retry-after=0;times=1' } },
      );
      expect(c.choices[0].message.content).toBe('retried');
    });

    it('reports a stream dropped mid-way as an error rather than a complete answer', async () => {
      const stream = await client.chat.completions.create(
        { model: 'svc-4', stream: true, messages: [{ role: 'user', content: 'Tell a long story' }] },
        { headers: { 'x-sandbox-fault': 'drop-after=3' } },
      );
      const read = async (): Promise<number> => {
        let n = 0;
        for await (const _chunk of stream) n++;
        return n;
      };
      await expect(read()).rejects.toThrow();
    });
  });
});

/**
 * Conformance: the official `@anthropic-ai/sdk` against the sandbox's Messages interface. The SDK
 * appends /v1/messages to the base URL and sends the key as `Authorization: Bearer`. Each test
 * asserts what the SDK parsed (blocks, stop reasons, usage, the accumulated final message), so a
 * stream the SDK cannot assemble fails here.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../main/sandbox/generate/tokenizer';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';

const KEY = 'sk-conformance-anthropic-01';
let sandbox: SandboxServer;
let client: Anthropic;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  client = new Anthropic({ apiKey: KEY, baseURL: sandbox.url, maxRetries: 0 });
});
afterAll(() => sandbox.close());

const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, required: ['city', 'unit'] },
};

describe('@anthropic-ai/sdk against the sandbox', () => {
  describe('messages.create', () => {
    it('answers with a text block, end_turn and usage', async () => {
      const m = await client.messages.create({
        model: 'svc-4',
        max_tokens: 256,
        system: 'You are terse.',
        messages: [{ role: 'user', content: 'Say "hello from the messages sandbox"' }],
      });
      expect(m.type).toBe('message');
      expect(m.role).toBe('assistant');
      expect(m.model).toBe('svc-4');
      expect(m.content).toEqual([{ type: 'text', text: 'hello from the messages sandbox' }]);
      expect(m.stop_reason).toBe('end_turn');
      expect(m.stop_sequence).toBeNull();
      expect(m.usage.input_tokens).toBeGreaterThan(0);
      expect(m.usage.output_tokens).toBe(countTokens('hello from the messages sandbox'));
      expect(m.usage.cache_creation_input_tokens).toBe(0);
      expect(m.usage.cache_read_input_tokens).toBe(0);
    });

    it('stops at a stop sequence and reports it', async () => {
      const m = await client.messages.create({
        model: 'svc-4-fast',
        max_tokens: 64,
        stop_sequences: ['END'],
        messages: [{ role: 'user', content: 'Say "one two END three"' }],
      });
      expect(m.content).toEqual([{ type: 'text', text: 'one two ' }]);
      expect(m.stop_reason).toBe('stop_sequence');
      expect(m.stop_sequence).toBe('END');
    });

    it('surfaces an unknown model as NotFoundError and a bad tool_choice as BadRequestError', async () => {
      const missing = await client.messages
        .create({ model: 'svc-404', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
      const bad = await client.messages
        .create({ model: 'svc-4', max_tokens: 10, tools: [weather], tool_choice: { type: 'tool', name: 'nope' }, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
      expect((bad as InstanceType<typeof Anthropic.APIError>).error).toEqual({
        code: 'Client specified an invalid argument',
        error: 'tool_choice names the tool "nope", which is not defined in tools',
      });
    });
  });

  describe('messages.stream', () => {
    it('round-trips a tool call: tool_use in the final message, then a text reply that uses the tool_result', async () => {
      const question: Anthropic.MessageParam = { role: 'user', content: 'What is the weather in Paris?' };
      const stream = client.messages.stream({ model: 'svc-4', max_tokens: 512, tools: [weather], tool_choice: { type: 'any' }, messages: [question] });
      const events: string[] = [];
      stream.on('streamEvent', (e) => events.push(e.type === 'content_block_delta' ? `delta:${e.delta.type}` : e.type));
      const first = await stream.finalMessage();
      const collapsed = events.filter((e, i) => e !== events[i - 1]);
      expect(collapsed).toEqual(['message_start', 'content_block_start', 'delta:input_json_delta', 'content_block_stop', 'message_delta', 'message_stop']);
      expect(events.filter((e) => e === 'delta:input_json_delta').length).toBeGreaterThan(1);
      expect(first.stop_reason).toBe('tool_use');
      expect(first.content).toHaveLength(1);
      const use = first.content[0] as Anthropic.ToolUseBlock;
      expect(use.type).toBe('tool_use');
      expect(use.id).toMatch(/^toolu_/);
      expect(use.name).toBe('get_weather');
      expect(Object.keys(use.input as object).sort()).toEqual(['city', 'unit']);
      expect(['celsius', 'fahrenheit']).toContain((use.input as { unit: string }).unit);

      const reply = await client.messages
        .stream({
          model: 'svc-4',
          max_tokens: 512,
          tools: [weather],
          messages: [
            question,
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C and sunny' }] },
          ],
        })
        .finalMessage();
      expect(reply.stop_reason).toBe('end_turn');
      expect(reply.content[0].type).toBe('text');
      expect((reply.content[0] as Anthropic.TextBlock).text).toContain('18°C and sunny');
    });

    it('streams a thinking block then a text block on the reasoning model', async () => {
      const stream = client.messages.stream({ model: 'svc-3-mini', max_tokens: 1024, messages: [{ role: 'user', content: 'Why do cats purr?' }] });
      let thinking = '';
      let text = '';
      stream.on('thinking', (delta) => {
        thinking += delta;
      });
      stream.on('text', (delta) => {
        text += delta;
      });
      const m = await stream.finalMessage();
      expect(m.content.map((b) => b.type)).toEqual(['thinking', 'text']);
      const block = m.content[0] as Anthropic.ThinkingBlock;
      expect(block.thinking).toBe(thinking);
      expect(block.thinking.length).toBeGreaterThan(0);
      expect(block.signature.length).toBeGreaterThan(0);
      expect((m.content[1] as Anthropic.TextBlock).text).toBe(text);
      expect(text).toMatch(/synthetic/i);
      expect(m.stop_reason).toBe('end_turn');
      expect(m.usage.output_tokens).toBeGreaterThan(0);
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { MessagesResponse, TextBlock, ThinkingBlock, ToolUseBlock } from '../../../../../shared/wire/messages';
import { countTokens } from '../../../../../main/sandbox/generate/tokenizer';
import { endpoint, useHarness } from '../harness';
import { schemaErrors } from '../schema-check';

const h = useHarness();

const base = { model: 'svc-4', max_tokens: 1024, messages: [{ role: 'user', content: 'Explain tide pools' }] };

const { answer: message, errorOf } = endpoint<MessagesResponse>(h, '/v1/messages', base);

const weather = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};
const clock = { name: 'get_time', input_schema: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'] } };

describe('sandbox/routes/messages', () => {
  describe('POST /v1/messages (plain)', () => {
    it('answers a message with one synthetic text block, end_turn and usage', async () => {
      const m = await message({});
      expect(m).toMatchObject({ type: 'message', role: 'assistant', model: 'svc-4', stop_reason: 'end_turn', stop_sequence: null });
      expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(m.content).toHaveLength(1);
      const text = (m.content[0] as TextBlock).text;
      expect(m.content[0].type).toBe('text');
      expect(text).toMatch(/synthetic/i);
      expect(m.usage).toEqual({ input_tokens: expect.any(Number), output_tokens: countTokens(text), cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
      expect(m.usage.input_tokens).toBeGreaterThan(0);
    });

    it('resolves aliases, and gives the same answer for the same request', async () => {
      const body = { model: 'svc-4-latest', messages: [{ role: 'user', content: 'Describe moss' }] };
      const a = await message(body);
      const b = await message(body);
      expect(a.model).toBe('svc-4');
      expect(b.content).toEqual(a.content);
    });

    it('takes system as a string or as text blocks, and accepts cache_control, metadata and top_k without changing the answer', async () => {
      const messages = [{ role: 'user', content: 'Describe basalt' }];
      const a = await message({ system: 'Be brief.', messages });
      const b = await message({
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        metadata: { user_id: 'user-1' },
        top_k: 5,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Describe basalt', cache_control: { type: 'ephemeral' } }] }],
      });
      expect(b.content).toEqual(a.content);
    });

    it('ends at a stop sequence, leaves it out of the text and reports it', async () => {
      const m = await message({ stop_sequences: ['nothing', 'STOP'], messages: [{ role: 'user', content: 'Say "alpha beta STOP gamma"' }] });
      expect(m.content).toEqual([{ type: 'text', text: 'alpha beta ' }]);
      expect(m.stop_reason).toBe('stop_sequence');
      expect(m.stop_sequence).toBe('STOP');
    });

    it('ends at max_tokens with stop_reason max_tokens', async () => {
      const m = await message({ max_tokens: 5 });
      expect(m.stop_reason).toBe('max_tokens');
      expect(m.usage.output_tokens).toBe(5);
      const full = await message({});
      expect((full.content[0] as TextBlock).text.startsWith((m.content[0] as TextBlock).text)).toBe(true);
    });

    it('reports a repeated conversation prefix as cache_read_input_tokens', async () => {
      const first = [{ role: 'user', content: 'Tell me about lichens and how they grow on rocks' }];
      const a = await message({ messages: first });
      const b = await message({ messages: [...first, { role: 'assistant', content: (a.content[0] as TextBlock).text }, { role: 'user', content: 'More' }] });
      expect(a.usage.cache_read_input_tokens).toBe(0);
      expect(b.usage.cache_read_input_tokens).toBeGreaterThan(0);
      expect(b.usage.cache_read_input_tokens + b.usage.input_tokens).toBeGreaterThan(a.usage.input_tokens);
    });

    it('accepts base64 and url images on a model with image input and counts them as input', async () => {
      const text = { type: 'text', text: 'What is in this picture?' };
      const plain = await message({ messages: [{ role: 'user', content: [text] }] });
      const withImages = await message({
        messages: [
          {
            role: 'user',
            content: [
              text,
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
            ],
          },
        ],
      });
      expect(withImages.usage.input_tokens).toBeGreaterThan(plain.usage.input_tokens + 2 * 200);
    });
  });

  describe('tools', () => {
    it('forces a tool_use with {type: "any"}: a toolu_ id, input valid against input_schema, stop_reason tool_use', async () => {
      const m = await message({ tools: [weather], tool_choice: { type: 'any' } });
      expect(m.stop_reason).toBe('tool_use');
      expect(m.content).toHaveLength(1);
      const use = m.content[0] as ToolUseBlock;
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather' });
      expect(use.id).toMatch(/^toolu_[0-9a-z]+$/);
      expect(schemaErrors(weather.input_schema, use.input)).toEqual([]);
      expect(m.usage.output_tokens).toBeGreaterThan(0);
    });

    it('calls the named tool with {type: "tool", name}', async () => {
      const m = await message({ tools: [weather, clock], tool_choice: { type: 'tool', name: 'get_time' } });
      expect(m.content.map((b) => (b as ToolUseBlock).name)).toEqual(['get_time']);
      expect(schemaErrors(clock.input_schema, (m.content[0] as ToolUseBlock).input)).toEqual([]);
    });

    it('with auto, calls a tool the user mentions and otherwise answers in text', async () => {
      const called = await message({ tools: [weather], messages: [{ role: 'user', content: 'Use get_weather for Oslo' }] });
      expect(called.stop_reason).toBe('tool_use');
      const text = await message({ tools: [weather], tool_choice: { type: 'auto' } });
      expect(text.stop_reason).toBe('end_turn');
      expect(text.content[0].type).toBe('text');
    });

    it('answers a tool_result with text that uses the result (and says so when it was an error)', async () => {
      const question = { role: 'user', content: 'Use get_weather for Oslo' };
      const first = await message({ tools: [weather], messages: [question] });
      const use = first.content[0] as ToolUseBlock;
      const followUp = (result: Record<string, unknown>) =>
        message({ tools: [weather], messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, ...result }] }] });
      const ok = await followUp({ content: [{ type: 'text', text: '-3°C, light snow' }] });
      expect(ok.stop_reason).toBe('end_turn');
      expect((ok.content[0] as TextBlock).text).toContain('-3°C, light snow');
      expect((ok.content[0] as TextBlock).text).toContain('get_weather');
      const failed = await followUp({ content: 'city not found', is_error: true });
      expect((failed.content[0] as TextBlock).text).toContain('error');
      expect((failed.content[0] as TextBlock).text).toContain('city not found');
    });

    it('ends with max_tokens, without a half-written tool_use, when the call does not fit', async () => {
      const m = await message({ max_tokens: 3, tools: [weather], tool_choice: { type: 'any' } });
      expect(m.content).toEqual([{ type: 'text', text: '' }]);
      expect(m.stop_reason).toBe('max_tokens');
      expect(m.usage.output_tokens).toBe(3);
    });

    it('refuses a tool_choice naming an undefined tool with 400', async () => {
      expect(await errorOf({ tools: [weather], tool_choice: { type: 'tool', name: 'get_tides' } })).toEqual({
        status: 400,
        error: 'tool_choice names the tool "get_tides", which is not defined in tools',
      });
    });
  });

  describe('reasoning model', () => {
    it('puts a thinking block with a signature before the text, and counts thinking as output', async () => {
      const m = await message({ model: 'svc-mini', messages: [{ role: 'user', content: 'Why is the sea salty?' }] });
      expect(m.model).toBe('svc-3-mini');
      expect(m.content.map((b) => b.type)).toEqual(['thinking', 'text']);
      const thinking = m.content[0] as ThinkingBlock;
      expect(thinking.thinking.length).toBeGreaterThan(0);
      expect(thinking.signature).toMatch(/^\S{8,}$/);
      expect(m.usage.output_tokens).toBe(countTokens(thinking.thinking) + countTokens((m.content[1] as TextBlock).text));
    });

    it('stops inside the thinking when max_tokens is smaller than it, with no text block', async () => {
      const m = await message({ model: 'svc-3-mini', max_tokens: 3 });
      expect(m.content.map((b) => b.type)).toEqual(['thinking']);
      expect(countTokens((m.content[0] as ThinkingBlock).thinking)).toBe(3);
      expect(m.stop_reason).toBe('max_tokens');
      expect(m.usage.output_tokens).toBe(3);
    });

    it('refuses stop_sequences with 400', async () => {
      expect(await errorOf({ model: 'svc-3-mini', stop_sequences: ['x'] })).toEqual({
        status: 400,
        error: 'stop_sequences is not supported by reasoning models; remove it or pick another model',
      });
    });

    it('refuses image input with 400', async () => {
      const res = await errorOf({
        model: 'svc-3-mini',
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }],
      });
      expect(res).toEqual({ status: 400, error: 'The model svc-3-mini does not accept image input; remove the image blocks or pick a model with image input.' });
    });
  });

  describe('errors', () => {
    it('answers 404 for an unknown model', async () => {
      expect(await errorOf({ model: 'svc-9' })).toEqual({ status: 404, error: 'The model svc-9 does not exist or your team does not have access to it.' });
    });

    it('answers 422 for a body of the wrong shape and 400 for a broken rule', async () => {
      expect(await errorOf({ max_tokens: undefined })).toEqual({ status: 422, error: 'max_tokens is required: the most tokens the reply may have' });
      expect(await errorOf({ temperature: 2.1 })).toEqual({ status: 400, error: 'temperature must be between 0 and 2' });
      expect(await errorOf({ stop_sequences: ['a', 'b', 'c', 'd', 'e'] })).toEqual({ status: 400, error: 'stop_sequences must have at most 4 sequences (got 5)' });
    });

    it('refuses a prompt over the context length with 400', async () => {
      const res = await errorOf({ model: 'svc-3-mini', messages: [{ role: 'user', content: 'word '.repeat(140_000) }] });
      expect(res.status).toBe(400);
      expect(res.error).toMatch(/^This model's maximum prompt length is 131072 tokens but the request contains \d+ tokens/);
    });
  });
});

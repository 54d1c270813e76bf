import { describe, expect, it } from 'vitest';
import { costInTicks } from '../../../../../shared/cost';
import type { ChatCompletion } from '../../../../../shared/wire/chat';
import { findLanguageModel } from '../../../../../main/sandbox/catalogue';
import { useHarness } from '../harness';
import { schemaErrors } from '../schema-check';

const h = useHarness();

async function completion(body: Record<string, unknown>): Promise<ChatCompletion> {
  const res = await h.chat(body);
  expect(res.status).toBe(200);
  return (await res.json()) as ChatCompletion;
}

async function errorOf(body: Record<string, unknown>): Promise<{ status: number; error: string }> {
  const res = await h.chat(body);
  return { status: res.status, error: ((await res.json()) as { error: string }).error };
}

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['location', 'unit'],
      additionalProperties: false,
    },
  },
};

describe('sandbox/routes/chat', () => {
  describe('POST /v1/chat/completions (plain)', () => {
    it('answers a chat.completion with a synthetic markdown answer and full usage', async () => {
      const c = await completion({ messages: [{ role: 'user', content: 'Explain how glaciers move' }] });
      expect(c).toMatchObject({ object: 'chat.completion', model: 'svc-4', service_tier: 'default', system_fingerprint: 'fp_5a1e4b7c2d' });
      expect(c.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(c.choices).toHaveLength(1);
      expect(c.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', logprobs: null });
      expect(c.choices[0].message).toMatchObject({ role: 'assistant', reasoning_content: null, refusal: null, tool_calls: null });
      expect(c.choices[0].message.content).toMatch(/synthetic/i);
      expect(c.choices[0].message.content).toContain('glaciers');
      const u = c.usage;
      expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
      expect(u.prompt_tokens_details).toEqual({ text_tokens: u.prompt_tokens, audio_tokens: 0, image_tokens: 0, cached_tokens: 0 });
      expect(u.cost_in_usd_ticks).toBe(
        costInTicks(findLanguageModel('svc-4')!, { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens }),
      );
    });

    it('resolves aliases to the model id and echoes service_tier', async () => {
      const c = await completion({ model: 'svc-4-latest', service_tier: 'priority' });
      expect(c.model).toBe('svc-4');
      expect(c.service_tier).toBe('priority');
    });

    it('answers "say X" prompts with exactly X', async () => {
      const c = await completion({ messages: [{ role: 'user', content: 'Say "pong"' }] });
      expect(c.choices[0].message.content).toBe('pong');
    });

    it('gives reasoning_content and reasoning tokens on the reasoning model, more with higher effort', async () => {
      const low = await completion({ model: 'svc-mini', messages: [{ role: 'user', content: 'Why is the sea salty?' }] });
      const high = await completion({ model: 'svc-mini', reasoning_effort: 'high', messages: [{ role: 'user', content: 'Why is the sea salty?' }] });
      expect(low.choices[0].message.reasoning_content).toMatch(/^First, the question is about sea salty\./);
      const lowR = low.usage.completion_tokens_details.reasoning_tokens;
      expect(lowR).toBeGreaterThan(0);
      expect(high.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(lowR);
      expect(low.usage.total_tokens).toBe(low.usage.prompt_tokens + low.usage.completion_tokens + lowR);
      const none = await completion({ model: 'svc-mini', reasoning_effort: 'none' });
      expect(none.choices[0].message.reasoning_content).toBeNull();
    });
  });

  describe('validation', () => {
    it('answers 400 naming the field and the rule for an out-of-range value', async () => {
      expect(await errorOf({ temperature: 3 })).toEqual({ status: 400, error: 'temperature must be between 0 and 2' });
      expect(await errorOf({ top_logprobs: 2 })).toEqual({ status: 400, error: 'top_logprobs needs logprobs set to true' });
    });

    it('answers 422 for a missing field or a wrong type', async () => {
      const res = await h.post('/v1/chat/completions', { model: 'svc-4' });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        code: 'Client specified an invalid argument',
        error: 'messages is required: send at least one message',
      });
      expect((await errorOf({ temperature: 'warm' })).status).toBe(422);
    });

    it('answers 404 for an unknown model', async () => {
      expect(await errorOf({ model: 'svc-0' })).toEqual({
        status: 404,
        error: 'The model svc-0 does not exist or your team does not have access to it.',
      });
    });

    it('refuses penalties and stop for the reasoning model, and images for a text-only model', async () => {
      expect(await errorOf({ model: 'svc-3-mini', frequency_penalty: 1 })).toEqual({
        status: 400,
        error: 'frequency_penalty is not supported by reasoning models; remove it or pick another model',
      });
      expect((await errorOf({ model: 'svc-3-mini', stop: ['x'] })).status).toBe(400);
      const image = [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }];
      expect((await errorOf({ model: 'svc-3-mini', messages: [{ role: 'user', content: image }] })).error).toMatch(
        /does not accept image input/,
      );
      const ok = await completion({ messages: [{ role: 'user', content: image }] });
      expect(ok.usage.prompt_tokens_details.image_tokens).toBe(256);
    });
  });

  describe('stop, length and n', () => {
    it('cuts the same answer before a stop sequence with finish_reason stop', async () => {
      const base = { seed: 11, messages: [{ role: 'user', content: 'Describe a lighthouse' }] };
      const full = (await completion(base)).choices[0].message.content!;
      const stopAt = full.indexOf(' ', 40);
      const stop = full.slice(stopAt, stopAt + 6);
      const cut = await completion({ ...base, stop: [stop, 'never-appears'] });
      expect(cut.choices[0].message.content).toBe(full.slice(0, full.indexOf(stop)));
      expect(cut.choices[0].finish_reason).toBe('stop');
    });

    it('stops at max_completion_tokens (and deprecated max_tokens) with finish_reason length', async () => {
      const c = await completion({ max_completion_tokens: 5 });
      expect(c.choices[0].finish_reason).toBe('length');
      expect(c.usage.completion_tokens).toBe(5);
      const old = await completion({ max_tokens: 3 });
      expect(old.usage.completion_tokens).toBe(3);
      expect(old.choices[0].finish_reason).toBe('length');
    });

    it('returns n indexed choices, charged across all, identical at temperature 0', async () => {
      const c = await completion({ n: 3, messages: [{ role: 'user', content: 'Name a river' }] });
      expect(c.choices.map((x) => x.index)).toEqual([0, 1, 2]);
      expect(new Set(c.choices.map((x) => x.message.content)).size).toBe(3);
      const greedy = await completion({ n: 2, temperature: 0, messages: [{ role: 'user', content: 'Name a river' }] });
      expect(greedy.choices[0].message.content).toBe(greedy.choices[1].message.content);
      const single = await completion({ n: 1, temperature: 0, messages: [{ role: 'user', content: 'Name a river' }] });
      expect(greedy.usage.completion_tokens).toBe(2 * single.usage.completion_tokens);
    });
  });

  describe('determinism', () => {
    it('gives the same output for the same request and seed, and another for another seed', async () => {
      const body = { seed: 1234, messages: [{ role: 'user', content: 'Write about autumn leaves' }] };
      const a = await completion(body);
      const b = await completion(body);
      const c = await completion({ ...body, seed: 1235 });
      expect(b.choices[0].message.content).toBe(a.choices[0].message.content);
      expect(c.choices[0].message.content).not.toBe(a.choices[0].message.content);
    });
  });

  describe('logprobs', () => {
    it('gives one entry per token with sorted top_logprobs that include the chosen token and add up to at most 1', async () => {
      const c = await completion({ logprobs: true, top_logprobs: 3, max_completion_tokens: 20 });
      const entries = c.choices[0].logprobs!.content!;
      expect(entries).toHaveLength(20);
      expect(entries.map((e) => e.token).join('')).toBe(c.choices[0].message.content);
      for (const e of entries) {
        expect(e.logprob).toBeLessThanOrEqual(0);
        expect(e.bytes).toEqual([...Buffer.from(e.token, 'utf8')]);
        expect(e.top_logprobs).toHaveLength(3);
        expect(e.top_logprobs).toContainEqual({ token: e.token, logprob: e.logprob, bytes: e.bytes });
        expect(e.top_logprobs.reduce((sum, t) => sum + Math.exp(t.logprob), 0)).toBeLessThanOrEqual(1 + 1e-5);
        const lps = e.top_logprobs.map((t) => t.logprob);
        expect([...lps].sort((x, y) => y - x)).toEqual(lps);
      }
    });
  });

  describe('tools', () => {
    it('calls a tool the user mentions, with arguments valid against its schema', async () => {
      const c = await completion({ tools: [weatherTool], messages: [{ role: 'user', content: 'Use get_weather for Paris' }] });
      const choice = c.choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      expect(choice.message.tool_calls).toHaveLength(1);
      const call = choice.message.tool_calls![0];
      expect(call).toEqual({ id: expect.stringMatching(/^call_\d{8}$/), type: 'function', function: { name: 'get_weather', arguments: expect.any(String) } });
      expect(schemaErrors(weatherTool.function.parameters, JSON.parse(call.function.arguments))).toEqual([]);
    });

    it('answers in words when no tool is mentioned, and calls a named tool_choice or required anyway', async () => {
      const plain = await completion({ tools: [weatherTool], messages: [{ role: 'user', content: 'Tell me a joke' }] });
      expect(plain.choices[0].finish_reason).toBe('stop');
      const named = await completion({
        tools: [weatherTool],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [{ role: 'user', content: 'Tell me a joke' }],
      });
      expect(named.choices[0].message.tool_calls![0].function.name).toBe('get_weather');
      const required = await completion({ tools: [weatherTool], tool_choice: 'required', messages: [{ role: 'user', content: 'Hi' }] });
      expect(required.choices[0].finish_reason).toBe('tool_calls');
      const none = await completion({ tools: [weatherTool], tool_choice: 'none', messages: [{ role: 'user', content: 'get_weather now' }] });
      expect(none.choices[0].finish_reason).toBe('stop');
    });

    it('makes parallel calls for several mentioned tools unless parallel_tool_calls is false', async () => {
      const clock = { ...weatherTool, function: { ...weatherTool.function, name: 'get_time', parameters: { type: 'object', properties: {} } } };
      const messages = [{ role: 'user', content: 'Call get_weather and get_time' }];
      const both = await completion({ tools: [weatherTool, clock], messages });
      expect(both.choices[0].message.tool_calls!.map((t) => t.function.name)).toEqual(['get_weather', 'get_time']);
      const one = await completion({ tools: [weatherTool, clock], messages, parallel_tool_calls: false });
      expect(one.choices[0].message.tool_calls).toHaveLength(1);
    });

    it('uses a tool result in the following answer', async () => {
      const c = await completion({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Use get_weather for Paris' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":18,"sky":"clear"}' },
        ],
      });
      expect(c.choices[0].finish_reason).toBe('stop');
      expect(c.choices[0].message.content).toContain('The `get_weather` tool returned: {"temperature":18,"sky":"clear"}');
    });
  });

  describe('response_format', () => {
    it('answers JSON valid against a json_schema', async () => {
      const schema = {
        type: 'object',
        properties: {
          title: { type: 'string' },
          year: { type: 'integer', minimum: 1900, maximum: 2030 },
          genres: { type: 'array', items: { type: 'string', enum: ['drama', 'comedy', 'sci-fi'] }, minItems: 1 },
        },
        required: ['title', 'year', 'genres'],
        additionalProperties: false,
      };
      const c = await completion({ response_format: { type: 'json_schema', json_schema: { name: 'movie', schema, strict: true } } });
      expect(schemaErrors(schema, JSON.parse(c.choices[0].message.content!))).toEqual([]);
    });

    it('answers a JSON object for json_object', async () => {
      const c = await completion({ response_format: { type: 'json_object' } });
      expect(JSON.parse(c.choices[0].message.content!)).toMatchObject({ topic: expect.any(String), source: 'sandbox' });
    });
  });

  describe('usage and cost', () => {
    it('reports a repeated conversation prefix as cached and bills it at the cached price', async () => {
      const first = [{ role: 'system', content: 'You are a careful assistant who answers about geology.' }, { role: 'user', content: 'What is basalt?' }];
      const a = await completion({ model: 'svc-4-fast', messages: first });
      expect(a.usage.prompt_tokens_details.cached_tokens).toBe(0);
      const b = await completion({ model: 'svc-4-fast', messages: [...first, { role: 'assistant', content: 'A rock.' }, { role: 'user', content: 'And granite?' }] });
      const cached = b.usage.prompt_tokens_details.cached_tokens;
      expect(cached).toBeGreaterThan(0);
      expect(cached).toBeLessThan(b.usage.prompt_tokens);
      expect(b.usage.cost_in_usd_ticks).toBe(
        costInTicks(findLanguageModel('svc-4-fast')!, {
          promptTokens: b.usage.prompt_tokens,
          cachedTokens: cached,
          completionTokens: b.usage.completion_tokens,
        }),
      );
    });

    it('applies the long-context prices at or above the threshold', async () => {
      const long = 'rock '.repeat(128_500);
      const c = await completion({ max_completion_tokens: 10, messages: [{ role: 'user', content: long }] });
      expect(c.usage.prompt_tokens).toBeGreaterThanOrEqual(128_000);
      const m = findLanguageModel('svc-4')!;
      expect(c.usage.cost_in_usd_ticks).toBe(
        c.usage.prompt_tokens * m.prompt_text_token_price_long_context + c.usage.completion_tokens * m.completion_text_token_price_long_context,
      );
    });
  });
});

/**
 * Conformance: the official `openai` SDK's legacy `completions.create` against the sandbox's
 * /v1/completions: n and echo, stop, and streaming with include_usage, asserting what the SDK
 * parsed.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../main/sandbox/index';

const KEY = 'sk-conformance-openai-completions-01';
let sandbox: SandboxServer;
let client: OpenAI;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  client = new OpenAI({ apiKey: KEY, baseURL: `${sandbox.url}/v1`, maxRetries: 0 });
});
afterAll(() => sandbox.close());

type ServiceUsage = OpenAI.CompletionUsage & { cost_in_usd_ticks: number };

describe('openai SDK completions.create against the sandbox', () => {
  it('returns n choices per prompt with the prompt echoed, indexed prompt-major', async () => {
    const c = await client.completions.create({ model: 'svc-4', prompt: ['Say alpha', 'Say beta'], n: 2, echo: true });
    expect(c.object).toBe('text_completion');
    expect(c.choices.map((x) => [x.index, x.text, x.finish_reason])).toEqual([
      [0, 'Say alphaalpha', 'stop'],
      [1, 'Say alphaalpha', 'stop'],
      [2, 'Say betabeta', 'stop'],
      [3, 'Say betabeta', 'stop'],
    ]);
    const usage = c.usage as ServiceUsage;
    expect(usage.completion_tokens).toBe(4);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + 4);
    expect(usage.cost_in_usd_ticks).toBeGreaterThan(0);
  });

  it('cuts at a stop sequence and at max_tokens', async () => {
    const stopped = await client.completions.create({ model: 'svc-4-fast', prompt: 'Say "red, green, blue"', stop: [', blue'] });
    expect(stopped.choices[0]).toMatchObject({ text: 'red, green', finish_reason: 'stop' });
    const cut = await client.completions.create({ model: 'svc-4-fast', prompt: 'Describe the sea', max_tokens: 3 });
    expect(cut.choices[0].finish_reason).toBe('length');
    expect(cut.usage?.completion_tokens).toBe(3);
  });

  it('streams text chunks whose text adds up, then a usage chunk with choices []', async () => {
    const stream = await client.completions.create({
      model: 'svc-4',
      prompt: 'Describe a lighthouse',
      seed: 11,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Completion[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.flatMap((c) => c.choices.map((x) => x.text)).join('');
    const plain = await client.completions.create({ model: 'svc-4', prompt: 'Describe a lighthouse', seed: 11 });
    expect(text).toBe(plain.choices[0].text);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    // The plain request repeats the prompt, so only it can report cached tokens.
    expect(last.usage).toMatchObject({ prompt_tokens: plain.usage!.prompt_tokens, completion_tokens: plain.usage!.completion_tokens });
    expect((last.usage as ServiceUsage).cost_in_usd_ticks).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('refuses the reasoning model with a BadRequestError that names the endpoints to use', async () => {
    const err = await client.completions.create({ model: 'svc-3-mini', prompt: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as Error).message).toContain('svc-3-mini is a reasoning model and does not support /v1/completions; use /v1/chat/completions or /v1/responses');
  });
});

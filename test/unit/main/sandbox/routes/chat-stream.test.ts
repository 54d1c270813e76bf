import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../../shared/wire/chat';
import { parseSse, startHarness, streamPayloads, useHarness } from '../harness';

const h = useHarness();

async function streamText(body: Record<string, unknown>): Promise<string> {
  const res = await h.chat({ stream: true, ...body });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return res.text();
}

describe('sandbox/routes/chat (streaming)', () => {
  it('sends data-only frames with one id, role on the first delta only, a final delta {} and [DONE]', async () => {
    const body = { seed: 5, messages: [{ role: 'user', content: 'Explain rainbows' }] };
    const frames = parseSse(await streamText(body));
    expect(frames.every((f) => f.event === undefined)).toBe(true);
    const chunks = streamPayloads(frames.map((f) => `data: ${f.data}\n\n`).join(''));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    for (const c of chunks) {
      expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'svc-4', system_fingerprint: 'fp_5a1e4b7c2d' });
      expect(c.choices).toHaveLength(1);
      expect('usage' in c).toBe(false);
    }
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.slice(1).some((c) => 'role' in c.choices[0].delta)).toBe(false);
    expect(chunks.at(-1)!.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    // The streamed text is what the same request answers without streaming.
    const plain = (await (await h.chat(body)).json()) as ChatCompletion;
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe(plain.choices[0].message.content);
  });

  it('adds one usage chunk with choices [] before [DONE] and usage null on the others when include_usage is set', async () => {
    const chunks = streamPayloads(await streamText({ stream_options: { include_usage: true }, max_completion_tokens: 8 }));
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ completion_tokens: 8, cost_in_usd_ticks: expect.any(Number), num_sources_used: 0 });
    expect(last.usage.total_tokens).toBe(last.usage.prompt_tokens + 8);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('length');
  });

  it('streams reasoning_content deltas before content deltas on the reasoning model', async () => {
    const chunks = streamPayloads(await streamText({ model: 'svc-3-mini', messages: [{ role: 'user', content: 'Why do cats purr?' }] }));
    const kinds = chunks.map((c) => ('reasoning_content' in c.choices[0].delta ? 'r' : 'content' in c.choices[0].delta ? 'c' : 'end'));
    expect(kinds[0]).toBe('r');
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', reasoning_content: 'First' });
    const firstContent = kinds.indexOf('c');
    expect(firstContent).toBeGreaterThan(0);
    expect(kinds.slice(firstContent).includes('r')).toBe(false);
    expect(kinds.at(-1)).toBe('end');
  });

  it('interleaves n choices, each with its own role, finish chunk and index', async () => {
    const chunks = streamPayloads(await streamText({ n: 2, max_completion_tokens: 4 }));
    const indexes = chunks.map((c) => c.choices[0].index);
    expect(indexes.slice(0, 4)).toEqual([0, 1, 0, 1]);
    for (const i of [0, 1]) {
      const mine = chunks.filter((c) => c.choices[0].index === i);
      expect(mine[0].choices[0].delta.role).toBe('assistant');
      expect(mine.at(-1)!.choices[0]).toEqual({ index: i, delta: {}, finish_reason: 'length' });
    }
  });

  it('sends each tool call whole in one delta, then finish_reason tool_calls', async () => {
    const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } };
    const chunks = streamPayloads(await streamText({ tools: [tool], messages: [{ role: 'user', content: 'lookup the tides' }] }));
    expect(chunks).toHaveLength(2);
    const call = chunks[0].choices[0].delta.tool_calls[0];
    expect(call).toEqual({ id: expect.stringMatching(/^call_/), type: 'function', index: 0, function: { name: 'lookup', arguments: expect.any(String) } });
    expect(JSON.parse(call.function.arguments)).toEqual({ q: expect.any(String) });
    expect(chunks[1].choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
  });

  it('carries logprobs on each content chunk when asked', async () => {
    const chunks = streamPayloads(await streamText({ logprobs: true, top_logprobs: 2, max_completion_tokens: 3 }));
    const content = chunks.filter((c) => typeof c.choices[0].delta.content === 'string');
    expect(content).toHaveLength(3);
    for (const c of content) {
      expect(c.choices[0].logprobs.content).toHaveLength(1);
      expect(c.choices[0].logprobs.content[0].token).toBe(c.choices[0].delta.content);
      expect(c.choices[0].logprobs.content[0].top_logprobs).toHaveLength(2);
    }
  });

  it('stops generating when the client goes away, and keeps serving', async () => {
    const lines: string[] = [];
    let stopped!: () => void;
    const stoppedEarly = new Promise<void>((resolve) => {
      stopped = resolve;
    });
    const paced = await startHarness({
      tokenDelayMs: 30,
      log: (line) => {
        lines.push(line);
        if (line.includes('stream stopped')) stopped();
      },
    });
    try {
      const res = await paced.chat({ stream: true });
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      await stoppedEarly;
      expect(lines.find((l) => l.includes('stream stopped'))).toMatch(/stopped after \d+ of \d+ rounds/);
      const after = await paced.chat({ max_completion_tokens: 2 });
      expect(after.status).toBe(200);
    } finally {
      await paced.sandbox.close();
    }
  });
});

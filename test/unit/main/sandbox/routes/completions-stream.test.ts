import { describe, expect, it } from 'vitest';
import type { TextCompletion } from '../../../../../shared/wire/completions';
import { parseSse, streamPayloads, useHarness } from '../harness';

const h = useHarness();

const base = { model: 'svc-4-fast', prompt: 'Describe a lighthouse', seed: 4 };

async function rawStream(body: Record<string, unknown>): Promise<string> {
  const res = await h.post('/v1/completions', { ...base, stream: true, ...body });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  return res.text();
}

async function plain(body: Record<string, unknown>): Promise<TextCompletion> {
  return (await (await h.post('/v1/completions', { ...base, ...body })).json()) as TextCompletion;
}

/** Text per choice index, joined from the chunks. */
function texts(chunks: Array<Record<string, any>>): string[] {
  const out: string[] = [];
  for (const c of chunks) for (const ch of c.choices) out[ch.index] = (out[ch.index] ?? '') + ch.text;
  return out;
}

describe('sandbox/routes/completions (streaming)', () => {
  it('sends data-only text_completion chunks with one id, a final chunk with the finish reason, then [DONE]', async () => {
    const frames = parseSse(await rawStream({}));
    expect(frames.every((f) => f.event === undefined)).toBe(true);
    const chunks = streamPayloads(await rawStream({}));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    for (const c of chunks) {
      expect(c).toMatchObject({ object: 'text_completion', model: 'svc-4-fast', system_fingerprint: 'fp_9c3d0e6f1a' });
      expect(c.choices).toHaveLength(1);
      expect('usage' in c).toBe(false);
    }
    expect(chunks.at(-1)!.choices[0]).toEqual({ index: 0, text: '', finish_reason: 'stop', logprobs: null });
    expect(chunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null)).toBe(true);
    expect(texts(chunks)).toEqual((await plain({})).choices.map((c) => c.text));
  });

  it('adds one usage chunk with choices [] before [DONE] and usage null on the others with include_usage', async () => {
    const chunks = streamPayloads(await rawStream({ max_tokens: 6, stream_options: { include_usage: true } }));
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ completion_tokens: 6, cost_in_usd_ticks: expect.any(Number), num_sources_used: 0 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('length');
  });

  it('interleaves n choices of several prompts, each index adding up to its plain text, echo first', async () => {
    const body = { prompt: ['Say "one two"', 'Say "three"'], n: 2, echo: true };
    const chunks = streamPayloads(await rawStream(body));
    expect(texts(chunks)).toEqual((await plain(body)).choices.map((c) => c.text));
    expect(chunks.slice(0, 4).map((c) => [c.choices[0].index, c.choices[0].text])).toEqual([
      [0, 'Say "one two"'],
      [1, 'Say "one two"'],
      [2, 'Say "three"'],
      [3, 'Say "three"'],
    ]);
  });

  it('carries per-chunk legacy logprobs that add up to the plain ones', async () => {
    const body = { logprobs: 1, max_tokens: 5 };
    const chunks = streamPayloads(await rawStream(body));
    const tokens = chunks.flatMap((c) => c.choices[0].logprobs?.tokens ?? []);
    const values = chunks.flatMap((c) => c.choices[0].logprobs?.token_logprobs ?? []);
    const expected = (await plain(body)).choices[0].logprobs!;
    expect(tokens).toEqual(expected.tokens);
    expect(values).toEqual(expected.token_logprobs);
  });
});

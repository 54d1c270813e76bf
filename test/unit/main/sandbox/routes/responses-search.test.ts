/** Search on both text endpoints: chat `citations` and responses `url_citation` annotations. */
import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../../shared/wire/chat';
import type { ResponseObject } from '../../../../../shared/wire/responses';
import { streamPayloads, useHarness } from '../harness';

const h = useHarness();

/** svc-4 prices: ticks per prompt, cached and completion token; search_price is ticks per source used. */
const SEARCH_PRICE = 250_000_000;

async function chat(body: Record<string, unknown>): Promise<ChatCompletion> {
  const res = await h.chat(body);
  expect(res.status).toBe(200);
  return (await res.json()) as ChatCompletion;
}

async function respond(body: Record<string, unknown>): Promise<ResponseObject> {
  const res = await h.post('/v1/responses', { model: 'svc-4', input: 'Latest news about tides', ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as ResponseObject;
}

describe('sandbox search (chat and responses)', () => {
  describe('chat', () => {
    it('returns synthetic citations and num_sources_used, billed per source', async () => {
      const plain = await chat({ seed: 3 });
      const searched = await chat({ seed: 3, search_parameters: { mode: 'on', max_search_results: 4 } });
      expect(plain.citations).toBeNull();
      expect(plain.usage.num_sources_used).toBe(0);
      expect(searched.usage.num_sources_used).toBeGreaterThan(0);
      expect(searched.usage.num_sources_used).toBeLessThanOrEqual(4);
      expect(searched.citations).toHaveLength(searched.usage.num_sources_used);
      for (const url of searched.citations!) expect(url).toMatch(/^https:\/\/sandbox\.invalid\/(web|x)\//);
      const u = searched.usage;
      const cached = u.prompt_tokens_details.cached_tokens;
      const tokens = (u.prompt_tokens - cached) * 30_000 + cached * 7_500 + u.completion_tokens * 150_000;
      expect(u.cost_in_usd_ticks).toBe(tokens + u.num_sources_used * SEARCH_PRICE);
    });

    it('searches with web_search_options, not with mode off, and hides citations when return_citations is false', async () => {
      const web = await chat({ web_search_options: { search_context_size: 'low' } });
      expect(web.citations).toHaveLength(3);
      const off = await chat({ search_parameters: { mode: 'off' } });
      expect(off.citations).toBeNull();
      expect(off.usage.num_sources_used).toBe(0);
      const hidden = await chat({ search_parameters: { return_citations: false } });
      expect(hidden.citations).toBeNull();
      expect(hidden.usage.num_sources_used).toBeGreaterThan(0);
    });

    it('searches in auto mode only when the prompt asks for fresh information', async () => {
      const calm = await chat({ search_parameters: { mode: 'auto' } });
      expect(calm.usage.num_sources_used).toBe(0);
      const fresh = await chat({ search_parameters: { mode: 'auto' }, messages: [{ role: 'user', content: 'What is the latest news on tides?' }] });
      expect(fresh.usage.num_sources_used).toBeGreaterThan(0);
    });

    it('puts citations on the last stream chunk only', async () => {
      const res = await h.chat({ stream: true, stream_options: { include_usage: true }, search_parameters: { sources: [{ type: 'news' }] } });
      const chunks = streamPayloads(await res.text());
      expect(chunks.slice(0, -1).some((c) => 'citations' in c)).toBe(false);
      expect(chunks.at(-1)!.citations[0]).toMatch(/^https:\/\/sandbox\.invalid\/news\//);
      expect(chunks.at(-1)!.usage.num_sources_used).toBe(chunks.at(-1)!.citations.length);
    });

    it('refuses bad search fields with 400 or 422', async () => {
      const bad = await h.chat({ search_parameters: { max_search_results: 100 } });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toBe('search_parameters.max_search_results must be between 1 and 50');
      const shape = await h.chat({ web_search_options: { search_context_size: 'max' } });
      expect(shape.status).toBe(422);
    });
  });

  describe('responses', () => {
    it('annotates output_text with url_citations pointing into the text, and counts sources', async () => {
      const r = await respond({ search_parameters: { mode: 'on' } });
      const msg = r.output[0];
      if (msg.type !== 'message' || msg.content[0].type !== 'output_text') throw new Error('expected a text message');
      const part = msg.content[0];
      expect(part.annotations.length).toBe(r.usage!.num_sources_used);
      expect(part.annotations.length).toBeGreaterThan(0);
      for (const a of part.annotations) expect(part.text.slice(a.start_index, a.end_index)).toBe(`[${a.title}](${a.url})`);
      expect(r.usage!.num_server_side_tools_used).toBe(0);
    });

    it('runs a web_search tool as a server-side call with its own output item', async () => {
      const r = await respond({ tools: [{ type: 'web_search' }] });
      expect(r.output.map((i) => i.type)).toEqual(['web_search_call', 'message']);
      expect(r.output[0]).toMatchObject({ id: `ws_${r.id}`, status: 'completed', action: { type: 'search', query: 'Latest news about tides' } });
      expect(r.usage).toMatchObject({ num_server_side_tools_used: 1, server_side_tool_usage_details: { web_search_calls: 1 } });
      expect(r.usage!.num_sources_used).toBeGreaterThan(0);
    });

    it('lets search_parameters override a web_search tool, and mode off turn search off', async () => {
      const r = await respond({ tools: [{ type: 'web_search' }], search_parameters: { mode: 'off' } });
      expect(r.output.map((i) => i.type)).toEqual(['message']);
      expect(r.usage!.num_sources_used).toBe(0);
    });
  });
});

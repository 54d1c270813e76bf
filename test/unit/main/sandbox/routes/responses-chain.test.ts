import { describe, expect, it } from 'vitest';
import type { Compaction, ResponseObject } from '../../../../../shared/wire/responses';
import { OTHER_KEY, useHarness } from '../harness';

const DAY = 86_400_000;
let now = Date.UTC(2026, 0, 1);
const h = useHarness({ now: () => now });

async function create(body: Record<string, unknown>): Promise<ResponseObject> {
  const res = await h.post('/v1/responses', { model: 'svc-4', ...body });
  const json = (await res.json()) as ResponseObject;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function failure(res: Response): Promise<[number, string]> {
  return [res.status, ((await res.json()) as { error: string }).error];
}

function text(r: ResponseObject): string {
  const msg = r.output.find((i) => i.type === 'message');
  return msg && msg.type === 'message' ? msg.content.map((p) => (p.type === 'output_text' ? p.text : '')).join('') : '';
}

const del = (id: string, key?: string) =>
  fetch(`${h.sandbox.url}/v1/responses/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key ?? 'sk-test-team-a-0001'}` } });

describe('sandbox/routes/responses (chains and storage)', () => {
  describe('previous_response_id', () => {
    it('lets the next turn see the whole chain: echo prompts still work and recall lists earlier turns', async () => {
      const one = await create({ input: 'Say alpha', instructions: 'Be brief' });
      expect(text(one)).toBe('alpha');
      const two = await create({ input: 'Say beta', previous_response_id: one.id });
      expect(text(two)).toBe('beta');
      expect(two.previous_response_id).toBe(one.id);
      expect(two.instructions).toBeNull();
      const three = await create({ input: 'What did I say earlier?', previous_response_id: two.id });
      expect(text(three)).toBe(
        'Here is what I can see from the 4 earlier messages of this conversation (synthetic sandbox recall):\n\n' +
          '- You said: "Say alpha"\n- I replied: "alpha"\n- You said: "Say beta"\n- I replied: "beta"',
      );
    });

    it('says which turn a synthetic answer is, and reports the chain as cached input', async () => {
      const one = await create({ input: 'Explain tide pools' });
      const two = await create({ input: 'Explain rock pools', previous_response_id: one.id });
      expect(text(two)).toMatch(/^\(Turn 2 of this conversation\.\) /);
      expect(two.usage!.input_tokens).toBeGreaterThan(one.usage!.input_tokens);
      expect(two.usage!.input_tokens_details.cached_tokens).toBeGreaterThan(0);
    });

    it('answers 404 naming the reason for an unknown, deleted or unstored previous response', async () => {
      expect(await failure(await h.post('/v1/responses', { model: 'svc-4', input: 'x', previous_response_id: 'nope' }))).toEqual([
        404,
        'previous_response_id nope does not exist for your team. Check the id (responses are stored per team). Start a new conversation, or send the earlier turns in input.',
      ]);
      const gone = await create({ input: 'Say one' });
      await del(gone.id);
      const [status, message] = await failure(await h.post('/v1/responses', { model: 'svc-4', input: 'x', previous_response_id: gone.id }));
      expect(status).toBe(404);
      expect(message).toContain(`previous_response_id ${gone.id} was deleted, so it can no longer be continued.`);
      const unstored = await create({ input: 'Say two', store: false });
      const [s2, m2] = await failure(await h.post('/v1/responses', { model: 'svc-4', input: 'x', previous_response_id: unstored.id }));
      expect(s2).toBe(404);
      expect(m2).toContain('was created with store: false');
    });
  });

  describe('GET and DELETE /v1/responses/{id}', () => {
    it('retrieves a stored response exactly as created, then deletes it once', async () => {
      const r = await create({ input: 'Say kept' });
      const got = await h.get(`/v1/responses/${r.id}`);
      expect(got.status).toBe(200);
      expect(await got.json()).toEqual(r);
      const d = await del(r.id);
      expect(d.status).toBe(200);
      expect(await d.json()).toEqual({ id: r.id, object: 'response', deleted: true });
      expect(await failure(await h.get(`/v1/responses/${r.id}`))).toEqual([404, `Response ${r.id} was deleted, so it can no longer be retrieved.`]);
      expect((await del(r.id)).status).toBe(404);
    });

    it('does not keep a store: false response', async () => {
      const r = await create({ input: 'Say fleeting', store: false });
      expect(r.store).toBe(false);
      const [status, message] = await failure(await h.get(`/v1/responses/${r.id}`));
      expect(status).toBe(404);
      expect(message).toContain('was created with store: false, so it was not kept and cannot be retrieved');
    });

    it('keeps responses per team', async () => {
      const r = await create({ input: 'Say mine' });
      expect((await h.get(`/v1/responses/${r.id}`, { authorization: `Bearer ${OTHER_KEY}` })).status).toBe(404);
      expect((await del(r.id, OTHER_KEY)).status).toBe(404);
      expect((await h.get(`/v1/responses/${r.id}`)).status).toBe(200);
    });

    it('deletes stored responses 30 days after creation', async () => {
      const r = await create({ input: 'Say ageing' });
      now += 30 * DAY - 1000;
      expect((await h.get(`/v1/responses/${r.id}`)).status).toBe(200);
      expect((await h.post('/v1/responses', { model: 'svc-4', input: 'Say next', previous_response_id: r.id })).status).toBe(200);
      now += 1000;
      expect(await failure(await h.get(`/v1/responses/${r.id}`))).toEqual([
        404,
        `Response ${r.id} has expired: stored responses are deleted 30 days after creation.`,
      ]);
      const [status, message] = await failure(await h.post('/v1/responses', { model: 'svc-4', input: 'x', previous_response_id: r.id }));
      expect(status).toBe(404);
      expect(message).toMatch(/has expired: stored responses are deleted 30 days after creation\. Start a new conversation/);
    });
  });

  describe('POST /v1/responses/compact', () => {
    const long = (topic: string) => `Tell me everything about ${topic}, ${'with plenty of detail and examples and history and context '.repeat(6)}`;
    const conversation = [
      { role: 'user', content: long('lighthouses') },
      { role: 'assistant', content: `Lighthouses guide ships. ${'They stand on coasts and flash at night so sailors know where rocks are. '.repeat(5)}` },
      { role: 'user', content: long('foghorns') },
    ];

    async function compact(input: unknown): Promise<Compaction> {
      const res = await h.post('/v1/responses/compact', { model: 'svc-4', input });
      expect(res.status).toBe(200);
      return (await res.json()) as Compaction;
    }

    it('folds the messages into one opaque compaction item with usage', async () => {
      const c = await compact(conversation);
      expect(c).toMatchObject({ object: 'response.compaction', model: 'svc-4', usage: { dropped_message_count: 3, output_tokens_details: { reasoning_tokens: 0 } } });
      expect(c.id).toMatch(/^cmp_[0-9a-f-]{36}$/);
      expect(c.output).toEqual([{ type: 'compaction', id: c.id, encrypted_content: expect.any(String) }]);
      expect(c.usage.total_tokens).toBe(c.usage.input_tokens + c.usage.output_tokens);
      expect(c.usage.output_tokens).toBeLessThan(c.usage.input_tokens);
    });

    it('continues from the compaction: the model sees the summary and fewer input tokens are counted', async () => {
      const c = await compact(conversation);
      const question = { role: 'user', content: 'What did we discuss so far?' };
      const full = await create({ input: [...conversation, question] });
      const compacted = await create({ input: [c.output[0], question] });
      expect(compacted.usage!.input_tokens).toBeLessThan(full.usage!.input_tokens);
      expect(text(compacted)).toContain('- From the compacted context: Compacted context (3 earlier messages): user: Tell me everything about lighthouses');
      const next = await create({ input: [c.output[0], { role: 'user', content: 'Explain tide pools' }] });
      expect(text(next)).toMatch(/^\(Turn 1 of this conversation, continuing from compacted context\.\) /);
    });

    it('refuses a changed compaction item, and one made for another team', async () => {
      const c = await compact(conversation);
      const item = c.output[0];
      const forged = { ...item, encrypted_content: `${item.encrypted_content.slice(0, -2)}xx` };
      const [status, message] = await failure(await h.post('/v1/responses', { model: 'svc-4', input: [forged, { role: 'user', content: 'hi' }] }));
      expect(status).toBe(400);
      expect(message).toBe(
        'input[0].encrypted_content is not a compaction this service issued to your team (it was changed, or made elsewhere). Pass the item from POST /v1/responses/compact back verbatim.',
      );
      const other = await h.post('/v1/responses', { model: 'svc-4', input: [item, { role: 'user', content: 'hi' }] }, { authorization: `Bearer ${OTHER_KEY}` });
      expect(other.status).toBe(400);
    });

    it('validates its body', async () => {
      expect(await failure(await h.post('/v1/responses/compact', { input: 'x' }))).toEqual([422, 'model is required: give a model id or alias']);
      expect(await failure(await h.post('/v1/responses/compact', { model: 'svc-4' }))).toEqual([422, 'input is required: a string or an array of input items']);
      expect((await h.post('/v1/responses/compact', { model: 'svc-404', input: 'x' })).status).toBe(404);
    });
  });
});

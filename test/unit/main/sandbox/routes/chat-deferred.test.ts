import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../../shared/wire/chat';
import { OTHER_KEY, startHarness, type Harness } from '../harness';

let h: Harness;
let now = 1_800_000_000_000;
beforeAll(async () => {
  h = await startHarness({ now: () => now, deferredDelayMs: 1000 });
});
afterAll(() => h.sandbox.close());

describe('sandbox/routes/chat (deferred)', () => {
  it('returns a request_id, then 202 while pending, then 200 with the completion', async () => {
    const res = await h.chat({ deferred: true, messages: [{ role: 'user', content: 'Say later' }] });
    expect(res.status).toBe(200);
    const { request_id: id } = (await res.json()) as { request_id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const pending = await h.get(`/v1/chat/deferred-completion/${id}`);
    expect(pending.status).toBe(202);
    expect(await pending.text()).toBe('');
    now += 999;
    expect((await h.get(`/v1/chat/deferred-completion/${id}`)).status).toBe(202);
    now += 1;
    const done = await h.get(`/v1/chat/deferred-completion/${id}`);
    expect(done.status).toBe(200);
    const c = (await done.json()) as ChatCompletion;
    expect(c).toMatchObject({ object: 'chat.completion', model: 'svc-4', created: Math.floor((now - 1000) / 1000) });
    expect(c.choices[0].message.content).toBe('later');
  });

  it('answers 404 for an unknown id and for another team', async () => {
    expect((await h.get('/v1/chat/deferred-completion/nope')).status).toBe(404);
    const { request_id: id } = (await (await h.chat({ deferred: true })).json()) as { request_id: string };
    const other = await h.get(`/v1/chat/deferred-completion/${id}`, { authorization: `Bearer ${OTHER_KEY}` });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: string }).error).toContain(id);
  });
});

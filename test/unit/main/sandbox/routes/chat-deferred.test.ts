import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../../../../../shared/wire/chat';
import { OTHER_KEY, startHarness, type Harness } from '../harness';

let h: Harness;
let now = 1_800_000_000_000;
const logs: string[] = [];
beforeAll(async () => {
  h = await startHarness({ now: () => now, deferredDelayMs: 1000, log: (line) => logs.push(line) });
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

  describe('Idempotency-Key', () => {
    const ask = { deferred: true, messages: [{ role: 'user', content: 'Say once' }] };
    const idOf = async (res: Response) => ((await res.json()) as { request_id: string }).request_id;

    it('gives the same request_id for the same key and body from the same team, without creating again', async () => {
      const logged = logs.length;
      const first = await h.chat(ask, { 'idempotency-key': 'job_abc' });
      const again = await h.chat(ask, { 'idempotency-key': 'job_abc' });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const id = await idOf(first);
      expect(await idOf(again)).toBe(id);
      const lines = logs.slice(logged);
      expect(lines.filter((l) => l.includes('created'))).toEqual([`deferred completion ${id} created`]);
      expect(lines.filter((l) => l.includes('replayed'))).toHaveLength(1);
      // Another team's same key is its own request.
      expect(await idOf(await h.chat(ask, { 'idempotency-key': 'job_abc', authorization: `Bearer ${OTHER_KEY}` }))).not.toBe(id);
    });

    it('refuses the same key with a different body (409), and forgets a key after 24 hours', async () => {
      const id = await idOf(await h.chat(ask, { 'idempotency-key': 'job_def' }));
      const other = await h.chat({ ...ask, messages: [{ role: 'user', content: 'Say twice' }] }, { 'idempotency-key': 'job_def' });
      expect(other.status).toBe(409);
      expect(((await other.json()) as { error: string }).error).toMatch(/Idempotency-Key "job_def" was already used/);
      now += 24 * 60 * 60 * 1000;
      expect(await idOf(await h.chat(ask, { 'idempotency-key': 'job_def' }))).not.toBe(id);
    });

    it('refuses an unreadable key (400)', async () => {
      const res = await h.chat(ask, { 'idempotency-key': 'has space' });
      expect(res.status).toBe(400);
    });
  });
});

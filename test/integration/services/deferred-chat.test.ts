import type { ChatCompletion } from '../../../shared/wire/chat';
import type { ChatStreamChunk } from '../../../shared/families/chat/contract';
import type { JobSummary } from '../../../shared/contract/jobs';
import type { RunRecord } from '../../../shared/contract/runs';
import type { StreamContext } from '../../../main/host/handlers';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const deferredAsk = (text: string) => ({ request: { model: 'svc-4', messages: [{ role: 'user' as const, content: text }], deferred: true } });

/** A window's stream context whose signal the test controls. */
function windowCtx(): { ctx: StreamContext<ChatStreamChunk>; chunks: ChatStreamChunk[]; close(): void } {
  const controller = new AbortController();
  const chunks: ChatStreamChunk[] = [];
  return { ctx: { sessionId: 'w1', streamId: 's1', signal: controller.signal, emit: (c) => chunks.push(c) }, chunks, close: () => controller.abort() };
}

describe('deferred chat as a durable job (ChatService + JobQueue + sandbox)', () => {
  const h = useHarness();
  const jobOf = (runId: string) => (h.app.handlers.jobs.list({ limit: 50 }, CTX) as JobSummary[]).find((j) => j.runId === runId);

  it('records the run in the shape of a live chat run, with the job and its state history', async () => {
    const w = windowCtx();
    const record = await h.app.handlers.chat.send(deferredAsk('Say durable'), w.ctx);
    expect(record).toMatchObject({ status: 'completed', error: null, response: { status: 200 } });
    expect((record.output as ChatCompletion).choices[0].message.content).toBe('durable');
    expect(record.deferredRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.usage?.total_tokens).toBeGreaterThan(0);
    expect(record.costTicks).toBe(record.usage?.cost_in_usd_ticks);
    expect(record.timings.totalMs).toBeGreaterThan(0);
    const started = w.chunks.find((c) => c.type === 'started') as Extract<ChatStreamChunk, { type: 'started' }>;
    expect(started).toMatchObject({ runId: record.id, jobId: expect.stringMatching(/^job_/) });
    // The create carried the job id as its Idempotency-Key, and the record says so.
    expect(record.request.headers['idempotency-key']).toBe(started.jobId);
    expect(w.chunks.filter((c) => c.type === 'deferred').length).toBeGreaterThan(0);

    const job = await h.app.handlers.jobs.get({ id: started.jobId! }, CTX);
    expect(job).toMatchObject({ kind: 'deferred-chat', state: 'completed', attempt: 1, runId: record.id, result: { requestId: record.deferredRequestId } });
    expect(job.events.map((e) => e.state)).toEqual(['queued', 'running', 'creating', 'pending', 'completed']);
    expect(h.events.filter((e) => e.channel === 'jobs.changed').map((e) => (e.payload as JobSummary).id)).toContain(job.id);
  });

  it('keeps running when the window goes away, and records the answer anyway', async () => {
    const w = windowCtx();
    const following = h.app.handlers.chat.send(deferredAsk('Say unattended'), w.ctx);
    await expect.poll(() => w.chunks.some((c) => c.type === 'deferred')).toBe(true);
    const runId = (w.chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>).runId;
    w.close();
    await expect(following).rejects.toMatchObject({ error: { code: 'cancelled' } });
    expect(await h.app.handlers.history.get({ id: runId }, CTX)).toMatchObject({ status: 'pending' });
    await expect.poll(async () => (await h.app.handlers.history.get({ id: runId }, CTX)).status, { timeout: 10_000 }).toBe('completed');
    const record: RunRecord = await h.app.handlers.history.get({ id: runId }, CTX);
    expect((record.output as ChatCompletion).choices[0].message.content).toBe('unattended');
    expect(jobOf(runId)?.state).toBe('completed');
  });

  it('lets another window follow a run under way, and returns a finished one as recorded', async () => {
    const first = windowCtx();
    const sent = h.app.handlers.chat.send(deferredAsk('Say followed'), first.ctx);
    await expect.poll(() => first.chunks.length).toBeGreaterThan(0);
    const runId = (first.chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>).runId;
    first.close();
    await sent.catch(() => undefined);
    const second = windowCtx();
    const followed = await h.app.handlers.chat.follow({ runId }, second.ctx);
    expect(followed).toMatchObject({ id: runId, status: 'completed' });
    expect(second.chunks[0]).toMatchObject({ type: 'started', runId, jobId: jobOf(runId)?.id });
    const again = windowCtx();
    expect(await h.app.handlers.chat.follow({ runId }, again.ctx)).toMatchObject({ id: runId, status: 'completed' });
    expect(again.chunks).toEqual([expect.objectContaining({ type: 'started', runId })]);
    expect(again.chunks[0]).not.toHaveProperty('jobId');
  });

  it('a user cancel stops the job and records the run as cancelled, for good', async () => {
    const w = windowCtx();
    const following = h.app.handlers.chat.send(deferredAsk('Say never'), w.ctx);
    await expect.poll(() => w.chunks.some((c) => c.type === 'deferred')).toBe(true);
    const { jobId, runId } = w.chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>;
    expect(h.app.handlers.jobs.cancel({ id: jobId! }, CTX)).toMatchObject({ state: 'cancelled' });
    const record = await following;
    expect(record).toMatchObject({ id: runId, status: 'cancelled', error: null, output: null });
    await new Promise((r) => setTimeout(r, 2000));
    expect(await h.app.handlers.history.get({ id: runId }, CTX)).toMatchObject({ status: 'cancelled' });
    expect((await h.app.handlers.jobs.get({ id: jobId! }, CTX)).events.map((e) => e.state).at(-1)).toBe('cancelled');
  });

  it('deleting a pending run from History cancels its job, so nothing is recorded into a deleted run', async () => {
    const w = windowCtx();
    const following = h.app.handlers.chat.send(deferredAsk('Say gone'), w.ctx).catch((e: unknown) => e);
    await expect.poll(() => w.chunks.some((c) => c.type === 'deferred')).toBe(true);
    const { jobId, runId } = w.chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>;
    expect(h.app.handlers.history.remove({ id: runId }, CTX)).toEqual({ removed: true });
    expect((await h.app.handlers.jobs.get({ id: jobId! }, CTX)).state).toBe('cancelled');
    await following;
    await new Promise((r) => setTimeout(r, 2000));
    await expect(h.app.handlers.history.get({ id: runId }, CTX)).rejects.toMatchObject({ error: { code: 'not_found' } });
    expect((await h.app.handlers.jobs.get({ id: jobId! }, CTX)).state).toBe('cancelled');
  });

  it('records a refused request without a job, as any chat run', async () => {
    const w = windowCtx();
    const record = await h.app.handlers.chat.send({ request: { ...deferredAsk('hi').request, temperature: 5 } }, w.ctx);
    expect(record).toMatchObject({ status: 'error', error: { code: 'invalid_input' } });
    expect(jobOf(record.id)).toBeUndefined();
  });
});

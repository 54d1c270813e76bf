import { beforeEach, describe, expect, it } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useChatRunStore } from '@/families/chat/stores/chat-run';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';
import { makeCompletion, makeRecord, makeUsage } from '../fake-data';
import type { JobSummary } from '@shared/contract/jobs';

let fake: FakeWorkbench;

beforeEach(() => {
  setActivePinia(createPinia());
  fake = createFakeWorkbench({ chatMode: 'manual' });
  provideWorkbench(fake);
});

function fillForm(): ReturnType<typeof useChatFormStore> {
  const form = useChatFormStore();
  form.model = 'svc-4';
  form.systemPrompt = 'Be brief.';
  form.messages[0]!.content = 'Hello?';
  form.params.temperature = 0.7;
  return form;
}

describe('chat-run store', () => {
  describe('send()', () => {
    it('shows the retry note while an attempt is retried and drops it once the run fails for good (the count stays)', async () => {
      const form = fillForm();
      const run = useChatRunStore();
      const done = run.send(form.request);
      const stream = fake.controls.streams[0]!;
      stream.emit({ type: 'retry', attempt: 2, delayMs: 850, reason: 'HTTP 503' });
      expect(run.retryNote).toBe('Retrying (attempt 2) in 850 ms: HTTP 503');
      stream.fail({ code: 'api_error', message: 'Service unavailable', status: 503 });
      await done;
      expect(run.retryNote).toBeNull();
      expect(run.error?.message).toBe('Service unavailable');
      expect(run.retries).toBe(2);
    });

    it('drops the retry note when the run ends with a record (an error recorded by main)', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const stream = fake.controls.streams[0]!;
      stream.emit({ type: 'retry', attempt: 1, delayMs: 300, reason: 'HTTP 429' });
      stream.finish({ status: 'error', error: { code: 'api_error', message: 'Too many requests', status: 429 }, retries: 2 });
      await done;
      expect(run.retryNote).toBeNull();
      expect(run.phase).toBe('error');
    });

    it('sends the request built from the form', async () => {
      const form = fillForm();
      const run = useChatRunStore();
      const done = run.send(form.request);
      fake.controls.streams[0]!.finish();
      await done;
      expect(fake.controls.calls.find((c) => c.method === 'chat.send')?.input).toEqual({
        request: {
          model: 'svc-4',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hello?' },
          ],
          temperature: 0.7,
          stream: true,
          stream_options: { include_usage: true },
        },
      });
    });

    it('appends content and reasoning deltas while the run streams', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'started', runId: 'r1', request: { method: 'POST', url: 'u', headers: {}, body: {} }, isSandbox: true });
      s.emit({ type: 'delta', choice: 0, reasoning: 'Think' });
      s.emit({ type: 'delta', choice: 0, content: 'Hel' });
      s.emit({ type: 'delta', choice: 0, content: 'lo' });
      run.flush();
      expect(run.phase).toBe('running');
      expect(run.isSandbox).toBe(true);
      expect(run.choices.map((c) => [c.reasoning, c.content])).toEqual([['Think', 'Hello']]);
      s.emit({ type: 'usage', usage: makeUsage({ cost_in_usd_ticks: 123 }) });
      s.finish();
      await done;
      expect(run.phase).toBe('completed');
      expect(run.costTicks).toBe(7_920_000);
      expect(run.record?.id).toMatch(/^run-/);
    });

    it('keeps one column per choice when n > 1', async () => {
      const form = fillForm();
      form.params.n = 2;
      const run = useChatRunStore();
      const done = run.send(form.request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 1, content: 'second' });
      s.emit({ type: 'delta', choice: 0, content: 'first' });
      s.emit({ type: 'delta', choice: 1, content: '!', finishReason: 'stop' });
      s.finish();
      await done;
      expect(run.choices.map((c) => ({ index: c.index, content: c.content }))).toEqual([
        { index: 0, content: 'first' },
        { index: 1, content: 'second!' },
      ]);
    });

    it('assembles tool calls sent whole or in fragments', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 0, toolCalls: [{ id: 'call_1', type: 'function', index: 0, function: { name: 'weather', arguments: '{"loc' } }] });
      s.emit({ type: 'delta', choice: 0, toolCalls: [{ id: '', type: 'function', index: 0, function: { name: '', arguments: 'ation":"SF"}' } }] });
      run.flush();
      expect(run.choices[0]!.toolCalls).toEqual([{ id: 'call_1', type: 'function', index: 0, function: { name: 'weather', arguments: '{"location":"SF"}' } }]);
      s.fail({ code: 'network', message: 'reset' });
      await done;
    });

    it('shows a deferred run as pending with its poll count until the answer arrives', async () => {
      const form = fillForm();
      form.params.deferred = true;
      const run = useChatRunStore();
      const done = run.send(form.request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'deferred', requestId: 'req-9', state: 'pending', polls: 3 });
      expect(run.phase).toBe('pending');
      expect(run.polls).toBe(3);
      s.emit({ type: 'delta', choice: 0, content: 'late answer' });
      expect(run.phase).toBe('running');
      s.finish();
      await done;
      expect(run.phase).toBe('completed');
      expect(run.choices[0]!.content).toBe('late answer');
    });

    it('ends as an error with code, status and request id and keeps the partial output', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 0, content: 'partial ans' });
      s.fail({ code: 'stream_incomplete', message: 'the stream ended early', status: 200, requestId: 'req-42' });
      await done;
      expect(run.phase).toBe('error');
      expect(run.error).toEqual({ code: 'stream_incomplete', message: 'the stream ended early', status: 200, requestId: 'req-42' });
      expect(run.choices[0]!.content).toBe('partial ans');
    });

    it('ignores a second send while a run is in progress', async () => {
      const run = useChatRunStore();
      const request = fillForm().request;
      const first = run.send(request);
      await run.send(request);
      expect(fake.controls.streams).toHaveLength(1);
      fake.controls.streams[0]!.finish();
      await first;
    });
  });

  describe('stop()', () => {
    it('cancels the stream: the run ends cancelled with its partial text kept', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 0, content: 'Once upon' });
      await run.stop();
      await done;
      expect(s.cancelled).toBe(true);
      expect(run.phase).toBe('cancelled');
      expect(run.busy).toBe(false);
      expect(run.choices[0]!.content).toBe('Once upon');
    });

    it('reports cancelled (not an error) when the stream rejects with a cancelled error', async () => {
      fake = createFakeWorkbench({ chatMode: 'manual', cancelRejects: true });
      provideWorkbench(fake);
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 0, content: 'Half' });
      await run.stop();
      await done;
      expect(run.phase).toBe('cancelled');
      expect(run.error).toBeNull();
      expect(run.choices[0]!.content).toBe('Half');
    });
  });

  describe('show() while a run streams', () => {
    it('stops the live run, and its end does not replace the record shown', async () => {
      const run = useChatRunStore();
      const done = run.send(fillForm().request);
      const s = fake.controls.streams[0]!;
      s.emit({ type: 'delta', choice: 0, content: 'Live text' });
      const opened = makeRecord({ output: makeCompletion(['Recorded answer']) });
      run.show(opened);
      expect(s.cancelled).toBe(true);
      await done;
      expect(run.record?.id).toBe(opened.id);
      expect(run.phase).toBe('completed');
      expect(run.busy).toBe(false);
      expect(run.choices[0]!.content).toBe('Recorded answer');
    });
  });

  describe('deferred runs carried by a job', () => {
    const job = (over: Partial<JobSummary> = {}): JobSummary => ({
      id: 'job_1', kind: 'deferred-chat', state: 'running', attempt: 1, createdAt: 1, updatedAt: 2, runId: 'run-d', progress: null, error: null, wait: null, ...over,
    });
    const started = { type: 'started' as const, runId: 'run-d', request: { method: 'POST', url: 'u', headers: {}, body: {} }, isSandbox: true, jobId: 'job_1' };

    it('stops a deferred run by cancelling its job, not by closing the stream (that only stops following)', async () => {
      fake.controls.jobs.push(job());
      const form = fillForm();
      form.params.deferred = true;
      const run = useChatRunStore();
      const done = run.send(form.request);
      const s = fake.controls.streams[0]!;
      s.emit(started);
      s.emit({ type: 'deferred', requestId: 'req-1', state: 'pending', polls: 0 });
      expect(run.jobId).toBe('job_1');
      await run.stop();
      expect(fake.controls.calls.filter((c) => c.method === 'jobs.cancel' || c.method === 'streams.cancel').map((c) => c.method)).toEqual(['jobs.cancel']);
      s.finish({ status: 'cancelled' });
      await done;
      expect(run.phase).toBe('cancelled');
    });

    it('says while its job waits out an outage, and "Retry now" asks main to try at once; the wait ends with the answer', async () => {
      fake.controls.jobs.push(job());
      const form = fillForm();
      form.params.deferred = true;
      const run = useChatRunStore();
      const done = run.send(form.request);
      const s = fake.controls.streams[0]!;
      s.emit(started);
      s.emit({ type: 'deferred', requestId: 'req-1', state: 'pending', polls: 1 });
      await run.retryNow();
      expect(fake.controls.calls.filter((c) => c.method === 'jobs.retryNow')).toEqual([]);
      const wait = { since: 1_000, failures: 9, reason: 'The app cannot reach the service: no network, or the service is down.', nextAttemptAt: 61_000, message: 'socket hang up' };
      s.emit({ type: 'waiting', wait });
      expect(run.waiting).toEqual(wait);
      expect(run.phase).toBe('pending');
      await run.retryNow();
      expect(fake.controls.calls.filter((c) => c.method === 'jobs.retryNow').map((c) => c.input)).toEqual([{ id: 'job_1' }]);
      s.emit({ type: 'waiting', wait: null });
      expect(run.waiting).toBeNull();
      s.emit({ type: 'waiting', wait });
      s.emit({ type: 'delta', choice: 0, content: 'late but here' });
      s.finish();
      await done;
      expect(run.phase).toBe('completed');
      expect(run.waiting).toBeNull();
    });

    it('after a reload, follows the newest deferred chat still running: pending, then its answer', async () => {
      fake.controls.jobs.push(job(), job({ id: 'job_0', runId: 'run-old', state: 'completed' }));
      const run = useChatRunStore();
      const resumed = run.resumeDeferred();
      await expect.poll(() => fake.controls.streams.length).toBe(1);
      const s = fake.controls.streams[0]!;
      expect(s.method).toBe('chat.follow');
      expect(fake.controls.calls.find((c) => c.method === 'jobs.list')?.input).toEqual({ active: true, kind: 'deferred-chat', limit: 1 });
      expect((s.input as unknown as { runId: string }).runId).toBe('run-d');
      expect(run.phase).toBe('pending');
      s.emit(started);
      s.emit({ type: 'deferred', requestId: 'req-1', state: 'pending', polls: 2 });
      expect(run.polls).toBe(2);
      s.emit({ type: 'delta', choice: 0, content: 'answered later' });
      s.finish();
      await resumed;
      expect(run.phase).toBe('completed');
      expect(run.choices[0]!.content).toBe('answered later');
    });

    it('keeps following a pending deferred run it is asked to show, and shows other records as they are', async () => {
      const run = useChatRunStore();
      const pending = makeRecord({ id: 'run-d', status: 'pending', request: { method: 'POST', url: 'u', headers: {}, body: { model: 'svc-4', messages: [], deferred: true } } });
      run.show(pending);
      await expect.poll(() => fake.controls.streams.length).toBe(1);
      expect(fake.controls.streams[0]!.method).toBe('chat.follow');
      expect(run.phase).toBe('pending');
      fake.controls.streams[0]!.finish();
      await expect.poll(() => run.phase).toBe('completed');
      run.show(makeRecord({ id: 'run-e', status: 'error' }));
      expect(run.phase).toBe('error');
      expect(fake.controls.streams).toHaveLength(1);
    });

    it('leaves the view alone when no deferred chat is running, or when a run is already shown', async () => {
      const run = useChatRunStore();
      await run.resumeDeferred();
      expect(run.phase).toBe('idle');
      fake.controls.jobs.push(job());
      const sending = run.send(fillForm().request);
      await run.resumeDeferred();
      expect(fake.controls.streams.map((s) => s.method)).toEqual(['chat.send']);
      fake.controls.streams[0]!.finish();
      await sending;
    });
  });
});

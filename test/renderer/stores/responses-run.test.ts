import { beforeEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { WorkbenchFailure } from '@shared/contract/errors';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';
import { useResponsesRunStore } from '@/families/responses/stores/responses-run';
import { createFakeWorkbench, type FakeWorkbench } from '../fake-workbench';

let fake: FakeWorkbench;

beforeEach(() => {
  setActivePinia(createPinia());
  fake = createFakeWorkbench({ chatMode: 'manual' });
  provideWorkbench(fake);
});

const call = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup', arguments: '{"q":"x"}', status: 'completed' };

describe('responses-run store', () => {
  describe('answerTools()', () => {
    it('resends the whole turn without previous_response_id when the response was not stored', async () => {
      const form = useResponsesFormStore();
      form.form.model = 'svc-4';
      form.form.input = 'Look it up';
      form.form.store = false;
      form.form.tools = [{ name: 'lookup', description: '', parameters: { type: 'object', properties: {} } }];
      const run = useResponsesRunStore();
      const sending = run.send();
      await flushPromises();
      fake.controls.streams[0]!.finish({
        endpoint: 'responses',
        output: { id: 'resp-u', object: 'response', created_at: 1_760_000_000, model: 'svc-4', status: 'completed', store: false, output: [call] },
      });
      await sending;
      expect(run.pendingCalls).toEqual([{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }]);

      const answering = run.answerTools([{ callId: 'call_1', output: 'found' }]);
      await flushPromises();
      const next = fake.controls.streams[1]!.input.request as unknown as Record<string, unknown>;
      expect(next).not.toHaveProperty('previous_response_id');
      expect(next.input).toEqual([
        { type: 'message', role: 'user', content: 'Look it up' },
        call,
        { type: 'function_call_output', call_id: 'call_1', output: 'found' },
      ]);
      fake.controls.streams[1]!.finish({ endpoint: 'responses', output: null });
      await answering;
    });
  });

  describe('compact()', () => {
    it('reports a failed compaction and leaves the selection where it was', async () => {
      fake.controls.responseNodes.push({
        id: 'resp-1', kind: 'response', parentId: null, connectionId: 'sandbox', runId: null, model: 'svc-4', createdAt: Date.now(),
        expiresAt: Date.now() + 1e9, serverState: 'stored', status: 'completed', inputPreview: 'a', outputPreview: 'b',
      });
      fake.responses.compact = async () => {
        throw new WorkbenchFailure({ code: 'api_error', message: 'the chain is too short to compact', status: 400 });
      };
      const run = useResponsesRunStore();
      await run.loadNode('resp-1');
      await run.compact('resp-1');
      expect(run.actionError?.message).toBe('the chain is too short to compact');
      expect(run.selectedId).toBe('resp-1');
      expect(useResponsesFormStore().target).toEqual({ kind: 'previous', id: 'resp-1' });
    });
  });
});

describe('responses-run store: stopping a chain action', () => {
  it('cancelAction() aborts a slow compaction through its call signal and says it stopped, not that it failed', async () => {
    let seen: AbortSignal | undefined;
    fake.responses.compact = (_input, options) =>
      new Promise((_resolve, reject) => {
        seen = options?.signal as AbortSignal | undefined;
        seen?.addEventListener('abort', () => reject(new WorkbenchFailure({ code: 'cancelled', message: 'responses.compact was cancelled.' })));
      });
    const run = useResponsesRunStore();
    const compacting = run.compact('resp-1');
    await flushPromises();
    expect(run.working).toBe(true);
    expect(seen?.aborted).toBe(false);
    run.cancelAction();
    await compacting;
    expect(seen?.aborted).toBe(true);
    expect(run.working).toBe(false);
    expect(run.actionError).toBeNull();
    expect(run.note).toMatch(/^Stopped\./);
  });
});

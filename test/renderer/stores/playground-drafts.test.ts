import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { provideWorkbench } from '@/api';
import { preloadDrafts, resetDraftCacheForTests } from '@/composables/draft-cache';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';
import { useResponsesRunStore } from '@/families/responses/stores/responses-run';
import { useCompareStore } from '@/stores/compare';
import { useLegacyFormStore } from '@/families/legacy/stores/legacy-form';
import { useRequestHeadersStore } from '@/stores/request-headers';
import type { ResponseNode } from '@shared/families/responses/contract';
import { createFakeWorkbench, type FakeWorkbench, type FakeWorkbenchOptions } from '../fake-workbench';

const DAY = 24 * 60 * 60 * 1000;

function node(id: string, parentId: string | null = null): ResponseNode {
  const createdAt = Date.now();
  return {
    id, kind: 'response', parentId, connectionId: 'sandbox', runId: `run-${id}`, model: 'svc-4', createdAt,
    expiresAt: createdAt + 30 * DAY, serverState: 'stored', status: 'completed', inputPreview: 'hi', outputPreview: 'hello',
  };
}

let fake: FakeWorkbench;

/** A new page whose start-up read found these drafts. */
async function page(options: FakeWorkbenchOptions): Promise<void> {
  fake = createFakeWorkbench(options);
  fake.controls.responseNodes.push(node('resp-a'), node('resp-b', 'resp-a'), node('resp-z'));
  provideWorkbench(fake);
  resetDraftCacheForTests();
  await preloadDrafts(fake);
  setActivePinia(createPinia());
}

beforeEach(() => resetDraftCacheForTests());
afterEach(() => resetDraftCacheForTests());

describe('playground drafts', () => {
  describe('responses', () => {
    const kept = { form: { model: 'svc-4', input: 'and its source?', temperature: 0.5 }, target: { kind: 'previous', id: 'resp-b' }, node: 'resp-b' };

    it('reopens the kept chain at its node, continuing from it even before the tree is back', async () => {
      await page({ drafts: { responses: kept } });
      const run = useResponsesRunStore();
      const form = useResponsesFormStore();
      expect(form.form).toMatchObject({ model: 'svc-4', input: 'and its source?', temperature: 0.5, store: true });
      expect(form.target).toEqual({ kind: 'previous', id: 'resp-b' });
      await flushPromises();
      expect(run.tree?.nodes.map((n) => n.id)).toEqual(['resp-a', 'resp-b']);
      expect(run.selectedId).toBe('resp-b');
      expect(form.target).toEqual({ kind: 'previous', id: 'resp-b' });
    });

    it('lets a node opened meanwhile (Open chain in Responses, from History) win over the kept one', async () => {
      await page({ drafts: { responses: kept } });
      const run = useResponsesRunStore();
      void run.loadNode('resp-z');
      await flushPromises();
      expect(run.tree?.rootId).toBe('resp-z');
      expect(run.selectedId).toBe('resp-z');
    });

    it('starts a new chain when the kept node is no longer known', async () => {
      await page({ drafts: { responses: { ...kept, node: 'resp-gone', target: { kind: 'previous', id: 'resp-gone' } } } });
      const run = useResponsesRunStore();
      await flushPromises();
      expect(run.selectedId).toBeNull();
      expect(useResponsesFormStore().target).toEqual({ kind: 'new' });
      expect(useResponsesFormStore().form.input).toBe('and its source?');
    });
  });

  describe('compare', () => {
    it('brings back three columns with their models and overrides; New keeps the columns and drops the overrides', async () => {
      const columns = [
        { model: 'svc-4', temperature: 0.2, maxTokens: null, reasoningEffort: null },
        { model: 'svc-4-fast', temperature: null, maxTokens: 64, reasoningEffort: null },
        { model: 'svc-3-mini', temperature: null, maxTokens: null, reasoningEffort: 'low' },
      ];
      await page({ drafts: { compare: { system: 'Be brief', user: 'Three owls', shared: { temperature: 1 }, columns } } });
      const compare = useCompareStore();
      expect(compare.columns.map(({ id: _id, ...c }) => c)).toEqual(columns);
      expect(compare.shared).toEqual({ temperature: 1, maxTokens: null, reasoningEffort: null });
      expect(compare.runOf(compare.columns[2]!.id).phase.value).toBe('idle');

      compare.draft.startNew();
      expect(compare.user).toBe('');
      expect(compare.columns.map((c) => [c.model, c.temperature, c.maxTokens, c.reasoningEffort])).toEqual([
        ['svc-4', null, null, null], ['svc-4-fast', null, null, null], ['svc-3-mini', null, null, null],
      ]);
      compare.draft.undo();
      expect(compare.columns.map(({ id: _id, ...c }) => c)).toEqual(columns);
    });

    it('keeps the columns, their runs and outputs when New and Undo change only their settings', async () => {
      const columns = [
        { model: 'svc-4', temperature: 0.2, maxTokens: null, reasoningEffort: null },
        { model: 'svc-4-fast', temperature: null, maxTokens: 64, reasoningEffort: null },
      ];
      await page({ drafts: { compare: { system: '', user: 'Two owls', shared: {}, columns } } });
      const compare = useCompareStore();
      const ids = compare.columns.map((c) => c.id);
      const running = compare.runAll();
      fake.controls.streams[0]!.emit({ type: 'delta', choice: 0, content: 'Owls hunt' });
      compare.runOf(ids[0]!).flush();
      compare.draft.startNew();
      compare.draft.undo();
      expect(compare.columns.map((c) => c.id)).toEqual(ids);
      expect(compare.columns.map(({ id: _id, ...c }) => c)).toEqual(columns);
      expect(compare.runOf(ids[0]!).busy.value).toBe(true);
      expect(compare.runOf(ids[0]!).choices.value[0]!.content).toBe('Owls hunt');
      fake.controls.streams.forEach((s) => s.finish());
      await running;
    });
  });

  describe('request headers', () => {
    it('come back after a reload, except secret values, which block Send until typed again', async () => {
      await page({});
      const headers = useRequestHeadersStore();
      headers.add('chat');
      headers.rows.chat[0] = { name: 'x-trace', value: 'run-7' };
      headers.add('chat');
      headers.rows.chat[1] = { name: 'x-upstream-token', value: 'very-secret-value' };
      await flushPromises();
      await new Promise((r) => setTimeout(r, 600));
      const saved = fake.controls.drafts.get('request-headers')?.state;
      expect(JSON.stringify(saved)).toContain('run-7');
      expect(JSON.stringify(saved)).not.toContain('very-secret-value');

      await page({ drafts: { 'request-headers': saved } });
      const back = useRequestHeadersStore();
      expect(back.rows.chat).toEqual([{ name: 'x-trace', value: 'run-7' }, { name: 'x-upstream-token', value: '' }]);
      expect(back.violations('chat').map((v) => v.message)).toEqual(['header 2: type the value of x-upstream-token (secret values are not kept between sessions)']);
    });
  });

  describe('legacy', () => {
    it('brings back both tabs and the shared model, with the fields a kept draft lacks at their defaults', async () => {
      await page({ drafts: { legacy: { tab: 'complete', model: 'svc-4', completions: { prompts: ['A', 'B'], n: 2 }, complete: { prompt: '\n\nHuman: hi\n\nAssistant:' } } } });
      const form = useLegacyFormStore();
      expect(form.tab).toBe('complete');
      expect(form.model).toBe('svc-4');
      expect(form.completions).toMatchObject({ prompts: ['A', 'B'], n: 2, echo: false });
      expect(form.complete.prompt).toBe('\n\nHuman: hi\n\nAssistant:');
    });
  });
});

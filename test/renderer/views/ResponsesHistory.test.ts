// History as it concerns Responses runs: the endpoint filter (rows themselves live in a virtual
// scroller that happy-dom does not lay out; the e2e test covers them) and the chain link of an entry.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { ResponseNode } from '@shared/families/responses/contract';
import HistoryView from '@/views/HistoryView.vue';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';
import { useResponsesRunStore } from '@/families/responses/stores/responses-run';
import { makeRecord } from '../fake-data';
import { mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const DAY = 24 * 60 * 60 * 1000;
const output = { id: 'resp-7', object: 'response', created_at: 1_760_000_000, model: 'svc-4', status: 'completed', store: true, output: [] };

function node(over: Partial<ResponseNode> = {}): ResponseNode {
  const createdAt = Date.now();
  return {
    id: 'resp-7', kind: 'response', parentId: null, connectionId: 'sandbox', runId: 'run-resp-7', model: 'svc-4', createdAt,
    expiresAt: createdAt + 30 * DAY, serverState: 'stored', status: 'completed', inputPreview: 'hi', outputPreview: 'hello', ...over,
  };
}

describe('HistoryView', () => {
  it('filters the list by endpoint, named as the app names it', async () => {
    m = await mountWithApp(HistoryView, { route: '/history' });
    const select = m.wrapper.find('[aria-label="Endpoint filter"]');
    await select.trigger('click');
    await flushPromises();
    const options = [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent?.trim());
    expect(options).toEqual(['All endpoints', 'Chat', 'Responses', 'Responses: compact', 'Responses: retrieve', 'Responses: delete', 'Messages', 'Completions (legacy)', 'Complete (legacy)', 'Files · upload',
      'Video · generate', 'Video · edit', 'Video · extend', 'Images · generate', 'Images · edit', 'Speech · synthesize', 'Speech · stream (WebSocket)',
      'Transcription · file', 'Transcription · live', 'Voices · clone', 'Voices · edit', 'Voices · delete', 'Realtime · call', 'Phone · incoming call']);
    document.querySelector('[role="option"][aria-label="Responses"]')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await flushPromises();
    const last = m.fake.controls.calls.filter((c) => c.method === 'history.search').at(-1);
    expect(last?.input).toEqual({ limit: 50, endpoint: 'responses' });
  });
});

describe('HistoryEntryView', () => {
  it('shows what the service holds of a responses run and opens its chain in the playground', async () => {
    const chat = makeRecord({ id: 'run-chat' });
    const record = makeRecord({ id: 'run-resp-7', endpoint: 'responses', output });
    m = await mountWithApp(HistoryEntryView, { fake: { history: [chat, record] }, route: '/history/run-chat', props: { id: 'run-chat' } });
    expect(m.wrapper.find('[aria-label="Response chain"]').exists()).toBe(false);
    m.fake.controls.responseNodes.push(node({ serverState: 'deleted' }));
    await m.wrapper.setProps({ id: 'run-resp-7' });
    await flushPromises();
    const section = m.wrapper.find('[aria-label="Response chain"]');
    expect(section.text()).toContain('Response resp-7: deleted');
    const link = section.find('a');
    expect(link.text()).toBe('Open chain in Responses');
    expect(link.attributes('href')).toBe('/responses?node=resp-7');
  });

  it('says so when a responses run is not in the local chain record', async () => {
    const record = makeRecord({ id: 'run-resp-7', endpoint: 'responses', output });
    m = await mountWithApp(HistoryEntryView, { fake: { history: [record] }, route: '/history/run-resp-7', props: { id: 'run-resp-7' } });
    expect(m.wrapper.find('[aria-label="Response chain"]').text()).toBe('Response resp-7 is not in the local chain record.');
    expect(m.wrapper.find('[aria-label="Response chain"] a').exists()).toBe(false);
  });

  it('opens a continuation in the Responses playground showing its own output, continuing from the response it continued from', async () => {
    const body = { model: 'svc-4', input: 'And then?', previous_response_id: 'resp-7', store: true, stream: true };
    const record = makeRecord({ id: 'run-resp-8', endpoint: 'responses', output: { ...output, id: 'resp-8' } });
    record.request = { ...record.request, url: 'http://127.0.0.1:4010/v1/responses', body };
    const parent = makeRecord({ id: 'run-resp-7', endpoint: 'responses', output });
    m = await mountWithApp(HistoryEntryView, { fake: { history: [record, parent] }, route: '/history/run-resp-8', props: { id: 'run-resp-8' } });
    m.fake.controls.responseNodes.push(node(), node({ id: 'resp-8', parentId: 'resp-7', runId: 'run-resp-8' }));
    (m.wrapper.findAll('button').find((b) => b.text() === 'Open in playground')!.element as HTMLButtonElement).click();
    await flushPromises();
    await vi.waitFor(() => expect(m.router.currentRoute.value.fullPath).toBe('/responses'), { timeout: 10_000 });
    expect(useResponsesFormStore().form.input).toBe('And then?');
    const run = useResponsesRunStore();
    // Its own answer is the current result (not the parent's), and Send would make a sibling of it.
    expect(run.record?.id).toBe('run-resp-8');
    await vi.waitFor(() => expect(run.selectedId).toBe('resp-7'));
    expect(m.fake.controls.calls.some((c) => c.method === 'history.get' && (c.input as { id: string }).id === 'run-resp-7')).toBe(false);
  });
});

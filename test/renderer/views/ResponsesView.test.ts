import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h } from 'vue';
import ConfirmDialog from 'primevue/confirmdialog';
import type { ResponseNode } from '@shared/families/responses/contract';
import type { RunRecord } from '@shared/contract/runs';
import ResponsesView from '@/families/responses/views/ResponsesView.vue';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';
import { useResponsesRunStore } from '@/families/responses/stores/responses-run';
import { makeRecord } from '../fake-data';
import type { FakeStream } from '../fake-workbench';
import { button, mountWithApp, type Mounted } from '../mount-app';

const DAY = 24 * 60 * 60 * 1000;
let m: Mounted;
afterEach(() => m?.wrapper.unmount());

function responseNode(id: string, parentId: string | null, over: Partial<ResponseNode> = {}): ResponseNode {
  const createdAt = Date.now() - 60_000 + m.fake.controls.responseNodes.length * 1000;
  return {
    id, kind: 'response', parentId, connectionId: 'sandbox', runId: `run-${id}`, model: 'svc-4', createdAt,
    expiresAt: createdAt + 30 * DAY, serverState: 'stored', status: 'completed', inputPreview: `input of ${id}`, outputPreview: `answer of ${id}`, ...over,
  };
}

function responseOutput(id: string, text: string, previous: string | null): RunRecord['output'] {
  return {
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'svc-4', status: 'completed', store: true, previous_response_id: previous,
    output: [{ id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] }],
  };
}

/** Plays main's part for one streamed response: records the node and its run, then ends the stream. */
async function respond(stream: FakeStream, id: string, parentId: string | null): Promise<void> {
  const node = responseNode(id, parentId);
  m.fake.controls.responseNodes.push(node);
  const output = responseOutput(id, `answer of ${id}`, parentId);
  m.fake.controls.history.push(makeRecord({ id: `run-${id}`, endpoint: 'responses', output }));
  stream.emit({ type: 'delta', choice: 0, content: `answer of ${id}` });
  stream.finish({ endpoint: 'responses', output });
  await flushPromises();
}

async function type(text: string): Promise<void> {
  await m.wrapper.find('#responses-input').setValue(text);
}

async function sendTurn(label: string, text: string): Promise<FakeStream> {
  await type(text);
  button(m.wrapper, label).click();
  await flushPromises();
  return m.fake.controls.streams.at(-1)!;
}

const sentRequest = (stream: FakeStream): Record<string, unknown> => stream.input.request as unknown as Record<string, unknown>;
const treeNode = (id: string) => m.wrapper.find(`[role="treeitem"][data-node-id="${id}"]`);

/** The view plus the app-level confirm dialog it asks through. */
const WithConfirm = defineComponent({ setup: () => () => [h(ResponsesView), h(ConfirmDialog)] });

async function mountView(route = '/responses'): Promise<void> {
  m = await mountWithApp(WithConfirm, { route });
  await flushPromises();
}

describe('ResponsesView', () => {
  it('starts a chain with the instructions, then continues it with previous_response_id and no instructions', async () => {
    await mountView();
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.find('.send-bar').text()).toBe("SendCan't send: write a message to send");
    await m.wrapper.find('#responses-instructions').setValue('Answer in one line');
    const first = await sendTurn('Send', 'What is a response chain?');
    expect(sentRequest(first)).toMatchObject({ model: 'svc-4', input: 'What is a response chain?', instructions: 'Answer in one line', store: true, stream: true });
    expect(sentRequest(first)).not.toHaveProperty('previous_response_id');
    await respond(first, 'resp-1', null);

    expect(treeNode('resp-1').attributes('aria-selected')).toBe('true');
    expect((m.wrapper.find('#responses-instructions').element as HTMLTextAreaElement).disabled).toBe(true);
    expect(m.wrapper.text()).toContain('the service refuses them with previous_response_id');
    expect((m.wrapper.find('#responses-input').element as HTMLTextAreaElement).value).toBe('');

    const second = await sendTurn('Continue', 'And a second turn?');
    expect(sentRequest(second)).toMatchObject({ input: 'And a second turn?', previous_response_id: 'resp-1' });
    expect(sentRequest(second)).not.toHaveProperty('instructions');
    await respond(second, 'resp-2', 'resp-1');
    expect(treeNode('resp-2').attributes('aria-selected')).toBe('true');
    expect(treeNode('resp-2').attributes('aria-level')).toBe('2');
  });

  it('branches from a non-leaf node: the second continuation becomes a sibling', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    await respond(await sendTurn('Continue', 'turn two'), 'resp-2', 'resp-1');
    await respond(await sendTurn('Continue', 'turn three'), 'resp-3', 'resp-2');

    await treeNode('resp-1').trigger('click');
    await flushPromises();
    expect(treeNode('resp-1').attributes('aria-selected')).toBe('true');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('answer of resp-1');

    const branch = await sendTurn('Continue', 'a different second turn');
    expect(sentRequest(branch).previous_response_id).toBe('resp-1');
    await respond(branch, 'resp-2b', 'resp-1');
    const order = m.wrapper.findAll('[role="treeitem"]').map((el) => [el.attributes('data-node-id'), el.attributes('aria-level')]);
    expect(order).toEqual([
      ['resp-1', '1'],
      ['resp-2', '2'],
      ['resp-3', '3'],
      ['resp-2b', '2'],
    ]);
  });

  it('moves through the tree with the arrow keys and opens a node with Enter', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    await respond(await sendTurn('Continue', 'turn two'), 'resp-2', 'resp-1');
    (treeNode('resp-2').element as HTMLElement).focus();
    await treeNode('resp-2').trigger('keydown', { key: 'ArrowUp' });
    await flushPromises();
    expect(document.activeElement?.getAttribute('data-node-id')).toBe('resp-1');
    await treeNode('resp-1').trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(useResponsesRunStore().selectedId).toBe('resp-1');
  });

  it('says when the service will delete each stored response', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    expect(treeNode('resp-1').find('.node-state').text()).toMatch(/^deleted by the service on \d{1,2} \w{3} \d{4} \(in 30 days\)$/);
  });

  it('deletes on the service only after confirmation, then marks the node and blocks continuing from it', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    button(m.wrapper, 'Delete on service').click();
    await flushPromises();
    expect(document.body.textContent).toContain('Delete response resp-1 on the service? This cannot be undone.');
    expect(m.fake.controls.calls.some((c) => c.method === 'responses.remove')).toBe(false);
    button(m.wrapper, 'Delete').click();
    await flushPromises();
    expect(m.fake.controls.calls.find((c) => c.method === 'responses.remove')?.input).toEqual({ id: 'resp-1' });
    expect(treeNode('resp-1').find('.node-state').text()).toBe('deleted');
    await type('continue anyway');
    expect(button(m.wrapper, 'Continue').disabled).toBe(true);
    expect(m.wrapper.text()).toContain("Can't continue from resp-1: it was deleted on the service.");
  });

  it('compacts the chain, shows what was dropped, and continues from the compaction with its item', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    await respond(await sendTurn('Continue', 'turn two'), 'resp-2', 'resp-1');
    const item = { type: 'compaction', id: 'cmp_fake', encrypted_content: 'x' };
    m.fake.controls.responseNodes.push(
      responseNode('cmp_fake', 'resp-2', {
        kind: 'compaction', runId: null, expiresAt: null, status: null, droppedMessageCount: 2, tokensSaved: 40, compactionItem: item,
        droppedMessages: [{ role: 'user', preview: 'turn one' }, { role: 'assistant', preview: 'answer of resp-1' }],
      }),
    );
    button(m.wrapper, 'Compact up to here').click();
    await flushPromises();
    expect(m.fake.controls.calls.find((c) => c.method === 'responses.compact')?.input).toEqual({ model: 'svc-4', responseId: 'resp-2' });
    expect(treeNode('cmp_fake').attributes('aria-selected')).toBe('true');
    const details = m.wrapper.find('[aria-label="Compaction"]');
    expect(details.text()).toContain('2 messages dropped');
    expect(details.text()).toContain('40 fewer input tokens');
    expect(details.find('[aria-label="Dropped messages"]').text()).toContain('turn one');

    const next = await sendTurn('Continue from compaction', 'after the summary');
    expect(sentRequest(next).input).toEqual([item, { role: 'user', content: 'after the summary' }]);
    expect(sentRequest(next)).not.toHaveProperty('previous_response_id');
    await respond(next, 'resp-3', 'cmp_fake');
    expect(treeNode('resp-3').attributes('aria-level')).toBe('4');
  });

  it('says what it is waiting for while the service compacts, and disables the node actions meanwhile', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    let release!: () => void;
    const original = m.fake.responses.compact;
    m.fake.responses.compact = (input) => new Promise((resolve) => (release = () => resolve(original(input))));
    button(m.wrapper, 'Compact up to here').click();
    await flushPromises();
    expect(m.wrapper.find('[role="status"]').text()).toContain('Compacting the chain');
    expect(button(m.wrapper, 'Compact up to here').disabled).toBe(true);
    release();
    await flushPromises();
    expect(m.wrapper.text()).not.toContain('Compacting the chain');
  });

  it('shows the error of a continuation whose previous response is gone and keeps the input', async () => {
    await mountView();
    await respond(await sendTurn('Send', 'turn one'), 'resp-1', null);
    const failing = await sendTurn('Continue', 'my careful follow-up');
    m.fake.controls.responseNodes[0]!.serverState = 'missing';
    failing.fail({ code: 'api_error', message: 'Response resp-1 not found: it was deleted or has expired', status: 404, requestId: 'req-9' });
    await flushPromises();
    expect(m.wrapper.text()).toContain('Response resp-1 not found: it was deleted or has expired');
    expect((m.wrapper.find('#responses-input').element as HTMLTextAreaElement).value).toBe('my careful follow-up');
    expect(treeNode('resp-1').find('.node-state').text()).toBe('missing on the service');
    expect(button(m.wrapper, 'Continue').disabled).toBe(true);
  });

  it('opens a response by id with its tree', async () => {
    await mountView();
    m.fake.controls.responseNodes.push(responseNode('ext-1', null));
    m.fake.controls.history.push(makeRecord({ id: 'run-ext-1', endpoint: 'responses', output: responseOutput('ext-1', 'made elsewhere', null) }));
    button(m.wrapper, 'Open response by id').click();
    await flushPromises();
    const input = document.querySelector<HTMLInputElement>('#open-response-id')!;
    input.value = 'ext-1';
    input.dispatchEvent(new Event('input'));
    button(m.wrapper, 'Open').click();
    await flushPromises();
    expect(m.fake.controls.calls.find((c) => c.method === 'responses.retrieve')?.input).toEqual({ id: 'ext-1' });
    expect(m.wrapper.find('.markdown-stub').text()).toBe('made elsewhere');
    expect(treeNode('ext-1').attributes('aria-selected')).toBe('true');
  });

  it('opens the tree of ?node=<id> and lists recent chains', async () => {
    m = await mountWithApp(ResponsesView, { route: '/chat' });
    m.fake.controls.responseNodes.push(responseNode('resp-1', null), responseNode('resp-2', 'resp-1'));
    m.fake.controls.history.push(makeRecord({ id: 'run-resp-2', endpoint: 'responses', output: responseOutput('resp-2', 'second answer', 'resp-1') }));
    await m.router.push('/responses?node=resp-2');
    await flushPromises();
    expect(treeNode('resp-2').attributes('aria-selected')).toBe('true');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('second answer');
    await useResponsesRunStore().loadChains();
    await flushPromises();
    expect(m.wrapper.find('[aria-label="Recent chains"]').text()).toContain('input of resp-1');
  });

  it('offers reasoning effort only for the reasoning model and asks for search with citations', async () => {
    await mountView();
    const form = useResponsesFormStore();
    form.form.reasoningEffort = 'low';
    form.form.search = true;
    await type('hi');
    expect(form.request).not.toHaveProperty('reasoning');
    form.form.model = 'svc-3-mini';
    await flushPromises();
    expect(form.request.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect(form.request.search_parameters).toEqual({ mode: 'on', return_citations: true });
  });

  it('answers a function call with its output, chained to the response that asked, without instructions', async () => {
    await mountView();
    const form = useResponsesFormStore();
    form.form.tools = [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    await m.wrapper.find('#responses-instructions').setValue('Use the tools');
    await flushPromises();
    const first = await sendTurn('Send', 'Weather in Paris?');
    expect(sentRequest(first).tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }]);
    m.fake.controls.responseNodes.push(responseNode('resp-1', null));
    first.finish({
      endpoint: 'responses',
      output: {
        id: 'resp-1', object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'svc-4', status: 'completed', store: true, previous_response_id: null,
        output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' }],
      },
    });
    await flushPromises();
    expect(m.wrapper.text()).toContain('The model called a tool');
    await m.wrapper.find('#reply-call_1').setValue('{"temp":21}');
    button(m.wrapper, 'Send replies').click();
    await flushPromises();
    const answer = m.fake.controls.streams.at(-1)!;
    expect(answer).not.toBe(first);
    expect(sentRequest(answer)).toMatchObject({ previous_response_id: 'resp-1', input: [{ type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' }] });
    expect(sentRequest(answer)).not.toHaveProperty('instructions');
  });

  it('shows the sources of a searched answer, labelled synthetic from the sandbox', async () => {
    await mountView();
    useResponsesFormStore().form.search = true;
    const stream = await sendTurn('Send', 'News about rivers?');
    expect(sentRequest(stream).search_parameters).toEqual({ mode: 'on', return_citations: true });
    stream.emit({ type: 'meta', meta: { citations: [{ url: 'https://sandbox.invalid/rivers/1', title: 'Rivers today' }], numSourcesUsed: 1 } });
    stream.emit({ type: 'delta', choice: 0, content: 'Rivers are rising [1].' });
    stream.finish({ endpoint: 'responses', output: null });
    await flushPromises();
    const sources = m.wrapper.find('[aria-label="Sources"]');
    expect(sources.text()).toContain('Rivers today');
    expect(sources.text()).toContain('synthetic sources from the sandbox');
  });

  it('keeps the open-by-id dialog open with the reason when the service has no such response', async () => {
    await mountView();
    button(m.wrapper, 'Open response by id').click();
    await flushPromises();
    const input = document.querySelector<HTMLInputElement>('#open-response-id')!;
    input.value = 'nope-1';
    input.dispatchEvent(new Event('input'));
    button(m.wrapper, 'Open').click();
    await flushPromises();
    expect(document.querySelector('[role="dialog"]')?.textContent).toContain('response nope-1 not found');
    expect(document.querySelector('#open-response-id')).not.toBeNull();
    // One message, the service's: nothing about adding it to the local chains by opening it by id.
    expect(document.body.textContent).not.toContain('Open it by id');
    expect(m.fake.controls.calls.some((c) => c.method === 'responses.tree')).toBe(false);
  });
});

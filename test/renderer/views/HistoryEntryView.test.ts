import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import ConfirmDialog from 'primevue/confirmdialog';
import { flushPromises } from '@vue/test-utils';
import HistoryEntryView from '@/views/HistoryEntryView.vue';
import EventLog from '@/components/run/EventLog.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useChatRunStore } from '@/families/chat/stores/chat-run';
import { useMessagesRunStore } from '@/families/messages/stores/messages-run';
import { useLegacyRunStore } from '@/families/legacy/stores/legacy-run';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import { useLegacyFormStore } from '@/families/legacy/stores/legacy-form';
import { button, mountWithApp, type Mounted } from '../mount-app';
import { makeCompletion, makeRecord } from '../fake-data';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const failed = makeRecord({
  id: 'run-failed',
  status: 'error',
  model: 'svc-3-mini',
  output: makeCompletion(['Le présent contrat']),
  error: { code: 'stream_incomplete', message: 'the stream ended before [DONE]', requestId: 'req-err-1' },
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4010/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: { model: 'svc-3-mini', messages: [{ role: 'system', content: 'Translate.' }, { role: 'user', content: 'The contract' }], temperature: 0.3, stream: true },
  },
});

/** The view plus the app-level confirm dialog it asks through. */
const WithConfirm = defineComponent({
  props: { id: { type: String, required: true } },
  setup: (props) => () => [h(HistoryEntryView, { id: props.id }), h(ConfirmDialog)],
});

describe('HistoryEntryView', () => {
  it('shows the conversation, the partial output above the error, and the sandbox label offline', async () => {
    m = await mountWithApp(HistoryEntryView, { fake: { history: [failed] }, route: '/history/run-failed', props: { id: 'run-failed' } });
    const text = m.wrapper.text();
    expect(text).toContain('The contract');
    expect(text).toContain('Le présent contrat');
    expect(text).toContain('the stream ended before [DONE]');
    expect(text).toContain('Sandbox — synthetic outputs');
    expect(text.indexOf('Le présent contrat')).toBeLessThan(text.indexOf('the stream ended before [DONE]'));
  });

  it('fetches the raw events only when the inspector\'s Events tab opens, then lists them', async () => {
    const streamed = makeRecord({
      id: 'run-streamed',
      events: [
        { t: 95, data: '{"choices":[{"index":0,"delta":{"content":"Bonjour"}}]}' },
        { t: 140, data: '[DONE]' },
      ],
    });
    m = await mountWithApp(HistoryEntryView, { fake: { history: [streamed] }, route: '/history/run-streamed', props: { id: 'run-streamed' } });
    const eventCalls = () => m.fake.controls.calls.filter((c) => c.method === 'history.events');
    const tab = m.wrapper.findAll('[role="tab"]').find((t) => t.text().startsWith('Events'))!;
    expect(tab.text()).toBe('Events (2)');
    expect(eventCalls()).toEqual([]);
    await tab.trigger('click');
    await flushPromises();
    expect(eventCalls()).toEqual([{ method: 'history.events', input: { id: 'run-streamed', offset: 0, limit: 5_000 } }]);
    // The virtual scroller draws no rows without a layout (jsdom): check what it was given.
    expect(m.wrapper.findComponent(EventLog).props('events')).toEqual([
      { t: 95, data: '{"choices":[{"index":0,"delta":{"content":"Bonjour"}}]}' },
      { t: 140, data: '[DONE]' },
    ]);
  });

  it('opens in the playground with model, messages and parameters loaded, and its own output as the current result', async () => {
    m = await mountWithApp(HistoryEntryView, { fake: { history: [failed] }, route: '/history/run-failed', props: { id: 'run-failed' } });
    // An older, unrelated run on screen in Chat must not stay there.
    useChatRunStore().show(makeRecord({ id: 'run-older', output: makeCompletion(['An unrelated older answer']) }));
    button(m.wrapper, 'Open in playground').click();
    await flushPromises();
    const form = useChatFormStore();
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/chat'), { timeout: 10_000 });
    expect(form.request).toEqual({
      model: 'svc-3-mini',
      messages: [
        { role: 'system', content: 'Translate.' },
        { role: 'user', content: 'The contract' },
      ],
      temperature: 0.3,
      stream: true,
      stream_options: { include_usage: true },
    });
    const run = useChatRunStore();
    expect(run.record?.id).toBe('run-failed');
    expect(run.choices[0]?.content).toBe('Le présent contrat');
    expect(run.error?.message).toBe('the stream ended before [DONE]');
  });

  it('runs again at once and shows the new result beside the recorded one, on the recorded connection', async () => {
    m = await mountWithApp(HistoryEntryView, { fake: { history: [failed] }, route: '/history/run-failed', props: { id: 'run-failed' } });
    button(m.wrapper, 'Run again').click();
    await flushPromises();
    const sends = m.fake.controls.calls.filter((c) => c.method === 'chat.send');
    expect(sends).toEqual([{ method: 'chat.send', input: { connectionId: 'sandbox', request: failed.request.body } }]);
    const stream = m.fake.controls.streams.at(-1)!;
    stream.emit({ type: 'started', runId: 'run-again-1', request: failed.request, isSandbox: true });
    stream.emit({ type: 'delta', choice: 0, content: 'Le contrat, de nouveau' });
    stream.finish();
    await flushPromises();
    await vi.waitFor(() => expect(m.wrapper.find('[aria-label="New run"]').text()).toContain('Le contrat, de nouveau'));
    // Both, side by side: the recorded output (with its error) stays as it was.
    expect(m.wrapper.find('[aria-label="Recorded output"]').text()).toContain('Le présent contrat');
    expect(m.wrapper.find('[aria-label="Recorded output"]').text()).toContain('the stream ended before [DONE]');
    expect(m.wrapper.find('.entry-grid').classes()).toContain('comparing');
    expect(m.router.currentRoute.value.path).toBe('/history/run-failed');
  });

  describe('an entry whose request sent an image', () => {
    const HASH = 'c'.repeat(64);
    const DATA_URL = `data:image/png;base64,${'iVBORw0KGgo'.repeat(200)}`;
    const bodyWith = (url: unknown) => ({ model: 'svc-3-mini', messages: [{ role: 'user', content: [{ type: 'text', text: 'What bird is this?' }, { type: 'image_url', image_url: { url } }] }], stream: true });
    // As History hands it out: the image as a blob reference, and where to load it.
    const withImage = makeRecord({
      id: 'run-image',
      request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/chat/completions', headers: {}, body: bodyWith({ $blob: HASH, mime: 'image/png', encoding: 'data-url' }) },
      media: { [HASH]: { url: `/media/${HASH}?t=tok`, expiresAt: null, mime: 'image/png', size: 1650 } },
    });
    const asSent = { ...withImage.request, body: bodyWith(DATA_URL) };
    const mountEntry = () =>
      mountWithApp(HistoryEntryView, { fake: { history: [withImage], requestsAsSent: { 'run-image': asSent } }, route: '/history/run-image', props: { id: 'run-image' } });

    it('shows the image by its URL, and opening the entry asks for no bytes', async () => {
      m = await mountEntry();
      const img = m.wrapper.find('[aria-label="Conversation sent"] img');
      expect(img.attributes('src')).toBe(`/media/${HASH}?t=tok`);
      expect(m.fake.controls.calls.map((c) => c.method)).not.toContain('history.request');
      expect(m.wrapper.text()).not.toContain('base64');
    });

    it('Run again asks main for the request as sent and sends it with its bytes', async () => {
      m = await mountEntry();
      button(m.wrapper, 'Run again').click();
      await flushPromises();
      expect(m.fake.controls.calls.filter((c) => c.method === 'history.request')).toEqual([{ method: 'history.request', input: { id: 'run-image' } }]);
      expect(m.fake.controls.calls.filter((c) => c.method === 'chat.send')).toEqual([{ method: 'chat.send', input: { connectionId: 'sandbox', request: asSent.body } }]);
    });

    it('the inspector shows the reference, and its Code tab asks for the bytes only when opened', async () => {
      m = await mountEntry();
      expect(m.wrapper.find('[aria-label="Inspector"]').text()).toContain(HASH);
      expect(m.fake.controls.calls.map((c) => c.method)).not.toContain('history.request');
      await m.wrapper.findAll('[role="tab"]').find((t) => t.text() === 'Code')!.trigger('click');
      await flushPromises();
      expect(m.fake.controls.calls.filter((c) => c.method === 'history.request')).toHaveLength(1);
      await vi.waitFor(() => expect(m.wrapper.find('[aria-label="Inspector"]').text()).toContain(DATA_URL.slice(0, 60)));
    });

    it('Open in playground fills the form with the image as sent (a Messages image block)', async () => {
      const B64 = 'iVBORw0KGgo'.repeat(200);
      const messagesBody = (data: unknown) => ({
        model: 'svc-3-mini',
        max_tokens: 256,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What bird is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data } }] }],
      });
      const recorded = makeRecord({
        id: 'run-image-messages',
        endpoint: 'messages',
        request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/messages', headers: {}, body: messagesBody({ $blob: HASH, mime: 'image/png', encoding: 'base64' }) },
        media: { [HASH]: { url: `/media/${HASH}?t=tok`, expiresAt: null, mime: 'image/png', size: 1650 } },
      });
      m = await mountWithApp(HistoryEntryView, {
        fake: { history: [recorded], requestsAsSent: { 'run-image-messages': { ...recorded.request, body: messagesBody(B64) } } },
        route: '/history/run-image-messages',
        props: { id: 'run-image-messages' },
      });
      expect(m.wrapper.find('[aria-label="Conversation sent"] img').attributes('src')).toBe(`/media/${HASH}?t=tok`);
      button(m.wrapper, 'Open in playground').click();
      await flushPromises();
      await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/messages'), { timeout: 10_000 });
      expect(m.fake.controls.calls.filter((c) => c.method === 'history.request')).toHaveLength(1);
      expect(JSON.stringify(useMessagesFormStore().request)).toContain(B64);
    });
  });

  it('deletes the run after confirmation and returns to the list', async () => {
    m = await mountWithApp(WithConfirm, { fake: { history: [failed] }, route: '/history/run-failed', props: { id: 'run-failed' } });
    button(m.wrapper, 'Delete').click();
    await flushPromises();
    expect(m.fake.controls.history).toHaveLength(1);
    const dialog = document.querySelector('[role="alertdialog"], [role="dialog"]')!;
    expect(dialog.textContent).toContain('cannot be undone');
    [...dialog.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Delete')!.click();
    await flushPromises();
    expect(m.fake.controls.history).toHaveLength(0);
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/history'));
  });

  it('explains a run that no longer exists', async () => {
    m = await mountWithApp(HistoryEntryView, { route: '/history/gone', props: { id: 'gone' } });
    expect(m.wrapper.text()).toContain('Could not open this run');
    expect(m.wrapper.text()).toContain('not_found');
  });

  it('re-runs a Messages run in the Messages playground and a legacy one in Legacy, showing what each sent', async () => {
    const message = makeRecord({
      id: 'run-msg',
      endpoint: 'messages',
      output: { id: 'm1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Bonjour' }], stop_reason: 'end_turn', stop_sequence: null },
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:4010/v1/messages',
        headers: {},
        body: { model: 'svc-4', system: 'Be French.', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] },
      },
    });
    const legacy = makeRecord({
      id: 'run-legacy',
      endpoint: 'completions',
      output: { id: 'c1', object: 'text_completion', choices: [{ index: 0, text: ' world', finish_reason: 'stop' }] },
      request: { method: 'POST', url: 'http://127.0.0.1:4010/v1/completions', headers: {}, body: { model: 'svc-4', prompt: ['Hello', 'Bye'], n: 1 } },
    });
    m = await mountWithApp(HistoryEntryView, { fake: { history: [message, legacy] }, route: '/history/run-msg', props: { id: 'run-msg' } });
    expect(m.wrapper.find('[aria-label="Conversation sent"]').text()).toContain('Be French.');
    expect(m.wrapper.text()).toContain('Bonjour');
    button(m.wrapper, 'Open in playground').click();
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/messages'), { timeout: 10_000 });
    expect(useMessagesFormStore().request).toMatchObject({ model: 'svc-4', system: 'Be French.', max_tokens: 64 });
    expect(useMessagesRunStore().record?.id).toBe('run-msg');
    m.wrapper.unmount();

    m = await mountWithApp(HistoryEntryView, { fake: { history: [message, legacy] }, route: '/history/run-legacy', props: { id: 'run-legacy' } });
    expect(m.wrapper.find('[aria-label="Conversation sent"]').text()).toContain('prompt 2');
    button(m.wrapper, 'Open in playground').click();
    await vi.waitFor(() => expect(m.router.currentRoute.value.path).toBe('/legacy'), { timeout: 10_000 });
    expect(useLegacyFormStore().completionsRequest).toMatchObject({ model: 'svc-4', prompt: ['Hello', 'Bye'] });
    const legacyRun = useLegacyRunStore();
    expect(legacyRun.completions.record?.id).toBe('run-legacy');
    expect(legacyRun.sent).toEqual({ prompts: ['Hello', 'Bye'], n: 1 });
  });
});

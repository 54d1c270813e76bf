import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h, ref } from 'vue';
import { usePersistedTools } from '@/composables/use-persisted-tools';
import ChatView from '@/views/ChatView.vue';
import MessagesView from '@/views/MessagesView.vue';
import { useChatFormStore } from '@/stores/chat-form';
import { useMessagesFormStore } from '@/stores/messages-form';
import type { ToolSpec } from '@shared/tools/tool-spec';
import { mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
  vi.useRealTimers();
});

const weather: ToolSpec = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, savedReply: '{"temp":21}' };

describe('use-persisted-tools', () => {
  it('fills an empty form with the tool set saved by an earlier session, saved reply included', async () => {
    m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
    await flushPromises();
    expect(useChatFormStore().params.tools).toEqual([weather]);
    expect(m.wrapper.text()).toContain('get_weather');
  });

  it('saves edits after a pause, per playground, and flushes a pending save when the view closes', async () => {
    m = await mountWithApp(MessagesView);
    await flushPromises();
    const form = useMessagesFormStore();
    form.params.tools = [weather];
    await flushPromises();
    await vi.waitFor(() => expect(m.fake.controls.toolSets.messages).toEqual([weather]), { timeout: 3000 });
    expect(m.fake.controls.toolSets.chat).toBeUndefined();

    form.params.tools = [{ ...weather, savedReply: '{"temp":5}' }];
    await flushPromises();
    m.wrapper.unmount();
    expect(m.fake.controls.toolSets.messages?.[0]?.savedReply).toBe('{"temp":5}');
  });

  it('does not replace tools the form already has (a re-run from History filled it first)', async () => {
    const existing = ref<ToolSpec[]>([{ ...weather, name: 'lookup', savedReply: undefined }]);
    const Probe = defineComponent({
      setup() {
        usePersistedTools('chat', { get: () => existing.value, set: (list) => (existing.value = list) });
        return () => h('div');
      },
    });
    m = await mountWithApp(Probe, { fake: { toolSets: { chat: [weather] } } });
    await flushPromises();
    expect(m.fake.controls.calls.some((c) => c.method === 'tools.load')).toBe(true);
    expect(existing.value.map((t) => t.name)).toEqual(['lookup']);
  });

  it('gives a form filled by a re-run from History its saved replies back', async () => {
    const rerun = ref<ToolSpec[]>([{ ...weather, savedReply: undefined }]);
    const Probe = defineComponent({
      setup() {
        usePersistedTools('chat', { get: () => rerun.value, set: (list) => (rerun.value = list) });
        return () => h('div');
      },
    });
    m = await mountWithApp(Probe, { fake: { toolSets: { chat: [weather] } } });
    await flushPromises();
    expect(rerun.value).toEqual([weather]);
  });

  it('keeps the saved replies when a recorded request is loaded into the form in the same session', async () => {
    m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
    await flushPromises();
    useChatFormStore().loadRequest({
      model: 'svc-4',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: weather.parameters } }],
    });
    await flushPromises();
    expect(useChatFormStore().params.tools[0]?.savedReply).toBe('{"temp":21}');
  });
});

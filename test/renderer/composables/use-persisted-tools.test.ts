import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import { defineComponent, h, ref } from 'vue';
import { usePersistedTools } from '@/composables/use-persisted-tools';
import ChatView from '@/families/chat/views/ChatView.vue';
import MessagesView from '@/families/messages/views/MessagesView.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
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

  describe('with another window', () => {
    const tool = (name: string, description = name): ToolSpec => ({ name, description, parameters: { type: 'object' } });

    it('follows a set saved in another window, without a reload', async () => {
      m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
      await flushPromises();
      m.fake.controls.saveToolSetElsewhere('chat', [weather, tool('lookup')]);
      await flushPromises();
      expect(useChatFormStore().params.tools.map((t) => t.name)).toEqual(['get_weather', 'lookup']);
      expect(m.wrapper.text()).toContain('lookup');
      // Adopting it is not an edit: nothing is saved back.
      expect(m.fake.controls.calls.filter((c) => c.method === 'tools.save')).toEqual([]);
    });

    it('keeps a tool added here and one added in the other window while this one had not saved yet', async () => {
      m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
      await flushPromises();
      const form = useChatFormStore();
      form.params.tools = [...form.params.tools, tool('mine')];
      await flushPromises();
      m.fake.controls.saveToolSetElsewhere('chat', [weather, tool('theirs')]);
      await flushPromises();
      expect(form.params.tools.map((t) => t.name)).toEqual(['get_weather', 'theirs', 'mine']);
      await vi.waitFor(() => expect(m.fake.controls.toolSets.chat?.map((t) => t.name)).toEqual(['get_weather', 'theirs', 'mine']), { timeout: 3000 });
    });

    it('keeps both when the other window saved between this one\'s load and its save (merged by main)', async () => {
      m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
      await flushPromises();
      const form = useChatFormStore();
      form.params.tools = [...form.params.tools, tool('mine')];
      await flushPromises();
      // The other window's save lands in main, but its event is not delivered before ours saves.
      m.fake.controls.saveToolSetElsewhere('chat', [weather, tool('theirs')], { silent: true });
      const saves = () => m.fake.controls.calls.filter((c) => c.method === 'tools.save');
      await vi.waitFor(() => expect(saves()).toHaveLength(1), { timeout: 3000 });
      await flushPromises();
      expect(saves()[0]!.input).toMatchObject({ playground: 'chat', baseRevision: 0 });
      expect(form.params.tools.map((t) => t.name)).toEqual(['get_weather', 'theirs', 'mine']);
      expect(m.fake.controls.toolSets.chat?.map((t) => t.name)).toEqual(['get_weather', 'theirs', 'mine']);
    });

    it('keeps the tool being edited open when another window\'s change arrives', async () => {
      m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
      await flushPromises();
      (m.wrapper.find('button[aria-label="Expand tool 1"]').element as HTMLButtonElement).click();
      await flushPromises();
      expect(m.wrapper.findAll('button[aria-expanded="true"]')).toHaveLength(1);
      m.fake.controls.saveToolSetElsewhere('chat', [tool('first'), weather]);
      await flushPromises();
      expect(m.wrapper.findAll('button[aria-expanded="true"]').map((b) => b.attributes('aria-label'))).toEqual(['Collapse tool 2']);
    });

    it('shows a conflict when both changed the same tool, and settles it either way', async () => {
      m = await mountWithApp(ChatView, { fake: { toolSets: { chat: [weather] } } });
      await flushPromises();
      const form = useChatFormStore();
      form.params.tools = [{ ...weather, description: 'edited here' }];
      await flushPromises();
      m.fake.controls.saveToolSetElsewhere('chat', [{ ...weather, description: 'edited there' }]);
      await flushPromises();
      const alert = () => m.wrapper.find('.tools-conflict');
      expect(alert().text()).toContain('"get_weather" also changed in another window');
      expect(form.params.tools[0]!.description).toBe('edited here');

      await alert().findAll('button').find((b) => b.text() === 'Keep mine')!.trigger('click');
      await vi.waitFor(() => expect(m.fake.controls.toolSets.chat?.[0]?.description).toBe('edited here'));
      await flushPromises();
      expect(alert().exists()).toBe(false);

      form.params.tools = [{ ...weather, description: 'again here' }];
      await flushPromises();
      m.fake.controls.saveToolSetElsewhere('chat', [{ ...weather, description: 'again there' }]);
      await flushPromises();
      await alert().findAll('button').find((b) => b.text() === 'Take theirs')!.trigger('click');
      await flushPromises();
      expect(form.params.tools[0]!.description).toBe('again there');
      expect(alert().exists()).toBe(false);
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import MessageEditor from '@/families/chat/components/MessageEditor.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

describe('MessageEditor', () => {
  it('shows the tool calls of an assistant turn added by the tool loop instead of an empty message box', async () => {
    m = await mountWithApp(MessageEditor);
    const form = useChatFormStore();
    form.appendToolTurn(
      { content: '', toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      [{ callId: 'call_1', output: '{"temp":3}' }],
    );
    await flushPromises();
    const assistant = m.wrapper.find('.turn--assistant');
    expect(assistant.find('[aria-label="Tool calls"]').text()).toContain('get_weather');
    expect(assistant.text()).toContain('"city": "Oslo"');
    expect(assistant.find('textarea').exists()).toBe(false);
    expect(m.wrapper.find('.turn--tool textarea').element).toBeTruthy();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import ChatView from '@/families/chat/views/ChatView.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import { useChatRunStore } from '@/families/chat/stores/chat-run';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

async function typeMessage(text: string): Promise<void> {
  await m.wrapper.find('textarea[aria-label="Message 1"]').setValue(text);
}

describe('ChatView', () => {
  it('picks the first language model and disables Send until a message is written', async () => {
    m = await mountWithApp(ChatView);
    expect(useChatFormStore().model).toBe('svc-4');
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain("Can't send: write a message to send");
    await typeMessage('Hello');
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
  });

  it('explains an out-of-range temperature inline and blocks Send with the reason', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Hello');
    useChatFormStore().params.temperature = 2.5;
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.find('#param-temperature-error').text()).toBe('temperature must be between 0 and 2');
    expect(m.wrapper.text()).toContain("Can't send: temperature must be between 0 and 2");
  });

  it('keeps a seed of "1.5" as typed, explains it under the field and blocks Send with the reason, then sends the fixed value', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Hello');
    await m.wrapper.find('input#param-seed').setValue('1.5');
    await flushPromises();
    expect((m.wrapper.find('input#param-seed').element as HTMLInputElement).value).toBe('1.5');
    expect(m.wrapper.findAll('#param-seed-error').map((e) => e.text())).toEqual(['seed takes a whole number; "1.5" has a fraction']);
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain('Can\'t send: seed takes a whole number; "1.5" has a fraction');
    expect(useChatFormStore().params.seed).toBeNull();
    await m.wrapper.find('input#param-seed').setValue('1e9');
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
    expect(useChatFormStore().request.seed).toBe(1_000_000_000);
  });

  it('streams the answer with the sandbox label, stops on Esc, and keeps the partial text', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Tell me a story');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'started', runId: 'r', request: { method: 'POST', url: 'u', headers: {}, body: {} }, isSandbox: true });
    stream.emit({ type: 'delta', choice: 0, content: 'Once upon a time' });
    useChatRunStore().flush();
    await flushPromises();
    expect(m.wrapper.find('.markdown-stub').text()).toBe('Once upon a time');
    expect(m.wrapper.find('.markdown-stub').attributes('data-streaming')).toBe('true');
    expect(m.wrapper.text()).toContain('Sandbox — synthetic outputs');
    expect(button(m.wrapper, 'Stop')).toBeTruthy();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await flushPromises();
    expect(stream.cancelled).toBe(true);
    expect(m.wrapper.find('.run-status').text()).toBe('cancelled');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('Once upon a time');
    expect(m.wrapper.find('.markdown-stub').attributes('data-streaming')).toBe('false');
  });

  it('shows the answer growing while it streams, not only at the end', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Tell me a story');
    button(m.wrapper, 'Send').click();
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    const shown = async (): Promise<string> => {
      useChatRunStore().flush();
      await flushPromises();
      return m.wrapper.find('.markdown-stub').text();
    };
    stream.emit({ type: 'delta', choice: 0, content: 'Once' });
    expect(await shown()).toBe('Once');
    stream.emit({ type: 'delta', choice: 0, content: ' upon' });
    expect(await shown()).toBe('Once upon');
    stream.emit({ type: 'delta', choice: 0, content: ' a time' });
    expect(await shown()).toBe('Once upon a time');
  });

  it('appends the reply to the conversation so the user can continue', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Hi');
    button(m.wrapper, 'Send').click();
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'delta', choice: 0, content: 'Hello there' });
    stream.finish();
    await flushPromises();
    button(m.wrapper, 'Add to conversation').click();
    await flushPromises();
    expect(useChatFormStore().messages.map((x) => [x.role, x.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello there'],
      ['user', ''],
    ]);
  });

  it('shows an error with its code, status and request id below the partial output', async () => {
    m = await mountWithApp(ChatView);
    await typeMessage('Hi');
    button(m.wrapper, 'Send').click();
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'delta', choice: 0, content: 'Partial' });
    stream.fail({ code: 'api_error', message: 'rate limited', status: 429, requestId: 'req-7' });
    await flushPromises();
    const alert = m.wrapper.find('[role="alert"]');
    expect(alert.text()).toContain('rate limited');
    expect(alert.text()).toContain('api_error · HTTP 429 · request req-7');
    expect(alert.text()).toContain('wait a moment');
    expect(m.wrapper.text()).toContain('Partial');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { Component } from 'vue';
import ChatView from '@/families/chat/views/ChatView.vue';
import LegacyView from '@/families/legacy/views/LegacyView.vue';
import MessagesView from '@/families/messages/views/MessagesView.vue';
import ResponsesView from '@/families/responses/views/ResponsesView.vue';
import { useLegacyRunStore } from '@/families/legacy/stores/legacy-run';
import { useMessagesRunStore } from '@/families/messages/stores/messages-run';
import { useResponsesRunStore } from '@/families/responses/stores/responses-run';
import { useResponsesFormStore } from '@/families/responses/stores/responses-form';
import { useRequestHeadersStore } from '@/stores/request-headers';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

async function addHeader(name: string, value: string): Promise<void> {
  const before = m.wrapper.findAll('input[aria-label$=" name"]').filter((i) => /^Header \d+ name$/.test(i.attributes('aria-label')!)).length;
  button(m.wrapper, 'Add header').click();
  await flushPromises();
  await m.wrapper.find(`input[aria-label="Header ${before + 1} name"]`).setValue(name);
  await m.wrapper.find(`input[aria-label="Header ${before + 1} value"]`).setValue(value);
}

describe('request headers in the playgrounds', () => {
  it('Chat: sends the headers typed in its parameters, and masks a secret-looking value as it is typed', async () => {
    m = await mountWithApp(ChatView);
    await m.wrapper.find('textarea[aria-label="Message 1"]').setValue('Hello');
    await addHeader('x-trace-id', 'trace-1');
    await addHeader('X-Upstream-Token', 'tok-42');
    expect(m.wrapper.find('input[aria-label="Header 2 value"]').attributes('type')).toBe('password');
    expect(m.wrapper.text()).toContain('Masked in History and the inspector');
    button(m.wrapper, 'Send').click();
    await flushPromises();
    expect(m.fake.controls.streams[0]!.input.headers).toEqual({ 'x-trace-id': 'trace-1', 'X-Upstream-Token': 'tok-42' });
  });

  it('Chat: refuses a header the app owns with the reason, blocking Send until it is removed', async () => {
    m = await mountWithApp(ChatView);
    await m.wrapper.find('textarea[aria-label="Message 1"]').setValue('Hello');
    await addHeader('Authorization', 'Bearer mine');
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.find('#chat-header-0-error').text()).toBe("Authorization cannot be set here: the app sends the connection's API key in Authorization (set it in Connections)");
    expect(m.wrapper.text()).toContain("Can't send: header 1: Authorization cannot be set here");
    button(m.wrapper, 'Remove header 1').click();
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
  });

  it('Chat: a repeated name is refused, blank rows are ignored', async () => {
    m = await mountWithApp(ChatView);
    await addHeader('x-a', '1');
    await addHeader('X-A', '2');
    button(m.wrapper, 'Add header').click();
    await flushPromises();
    expect(useRequestHeadersStore().violations('chat').map((v) => v.message)).toEqual(['header 2: X-A is given twice']);
    await m.wrapper.find('input[aria-label="Header 2 name"]').setValue('x-b');
    expect(useRequestHeadersStore().violations('chat')).toEqual([]);
    expect(useRequestHeadersStore().headersFor('chat')).toEqual({ 'x-a': '1', 'x-b': '2' });
  });

  const others: [string, Component, 'messages' | 'responses' | 'legacy', () => Promise<unknown>][] = [
    ['Messages', MessagesView, 'messages', () => useMessagesRunStore().send({ model: 'svc-4', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })],
    ['Responses', ResponsesView, 'responses', () => {
      useResponsesFormStore().form.input = 'hi';
      return useResponsesRunStore().send();
    }],
    ['Completions', LegacyView, 'legacy', () => useLegacyRunStore().sendCompletions({ model: 'svc-4', prompt: 'hi' })],
  ];
  for (const [label, view, playground, send] of others) {
    it(`${label}: has the editor in its parameters and sends its own headers only`, async () => {
      m = await mountWithApp(view);
      await addHeader('x-trace-id', `for-${playground}`);
      useRequestHeadersStore().rows.chat.push({ name: 'x-chat-only', value: '1' });
      void send();
      await flushPromises();
      expect(m.fake.controls.streams.at(-1)!.input.headers).toEqual({ 'x-trace-id': `for-${playground}` });
    });
  }
});

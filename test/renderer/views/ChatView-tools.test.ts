import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import ChatView from '@/families/chat/views/ChatView.vue';
import { useChatFormStore } from '@/families/chat/stores/chat-form';
import type { ChatRequest } from '@shared/wire/chat';
import { makeCompletion } from '../fake-data';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const weatherCall = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };

/** Ends stream `i` with a tool call (or with text when `text` is given). */
async function answer(i: number, text?: string): Promise<void> {
  const stream = m.fake.controls.streams[i]!;
  const completion = makeCompletion([text ?? '']);
  if (!text) {
    completion.choices[0]!.finish_reason = 'tool_calls';
    completion.choices[0]!.message.content = null;
    completion.choices[0]!.message.tool_calls = [{ ...weatherCall, id: `call_${i + 1}` }];
  }
  stream.finish({ output: completion });
  await flushPromises();
}

async function setUp(savedReply?: string): Promise<void> {
  m = await mountWithApp(ChatView);
  const form = useChatFormStore();
  form.messages[0]!.content = 'What is the weather in Paris? use get_weather';
  form.params.tools = [
    { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, ...(savedReply ? { savedReply } : {}) },
  ];
  await flushPromises();
}

const sentRequest = (i: number): ChatRequest => (m.fake.controls.streams[i]!.input.request as unknown as ChatRequest);

describe('ChatView tools', () => {
  it('sends the tools, then answers a tool call by hand and continues the conversation', async () => {
    await setUp();
    button(m.wrapper, 'Send').click();
    await flushPromises();
    expect(sentRequest(0).tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    ]);
    await answer(0);
    expect(m.wrapper.text()).toContain('The model called a tool');
    await m.wrapper.find('#reply-call_1').setValue('{"temp": 21}');
    button(m.wrapper, 'Send replies').click();
    await flushPromises();
    expect(sentRequest(1).messages).toEqual([
      { role: 'user', content: 'What is the weather in Paris? use get_weather' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', content: '{"temp": 21}', tool_call_id: 'call_1' },
    ]);
    await answer(1, 'It is 21 degrees in Paris.');
    expect(m.wrapper.text()).not.toContain('The model called a tool');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('It is 21 degrees in Paris.');
  });

  it('blocks Send while a tool\'s parameters do not parse', async () => {
    await setUp();
    button(m.wrapper, 'Expand tool 1').click();
    await flushPromises();
    await m.wrapper.find('#chat-tool-1-parameters').setValue('{"type": "object"');
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain(`Can't send: "get_weather" parameters: Not valid JSON:`);
  });

  it('loops with saved replies, showing the turn, until the model answers in words', async () => {
    await setUp('{"temp": 21}');
    button(m.wrapper, 'Send').click();
    await flushPromises();
    await answer(0);
    button(m.wrapper, 'Loop with saved replies').click();
    await flushPromises();
    expect(m.wrapper.text()).toContain('Loop turn 1 / 10');
    await answer(1);
    expect(m.wrapper.text()).toContain('Loop turn 2 / 10');
    expect(sentRequest(2).messages.filter((x) => x.role === 'tool').map((x) => x.tool_call_id)).toEqual(['call_1', 'call_2']);
    await answer(2, 'Done.');
    expect(m.wrapper.text()).toContain('Done after 2 turns: the model answered without calling a tool.');
    expect(m.wrapper.text()).not.toContain('Send replies');
    expect(m.fake.controls.streams).toHaveLength(3);
    // A new prompt clears the loop's outcome.
    button(m.wrapper, 'Send').click();
    await flushPromises();
    expect(m.wrapper.text()).not.toContain('Done after 2 turns');
  });

  it('shows a json_schema reply as a checked tree', async () => {
    m = await mountWithApp(ChatView);
    const form = useChatFormStore();
    form.messages[0]!.content = 'A city';
    form.params.responseFormat = 'json_schema';
    form.params.jsonSchemaText = '{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}';
    await flushPromises();
    button(m.wrapper, 'Send').click();
    await flushPromises();
    m.fake.controls.streams[0]!.finish({ output: makeCompletion(['{"city": 5}']) });
    await flushPromises();
    expect(m.wrapper.find('[data-path="/city"]').classes()).toContain('node--bad');
    expect(m.wrapper.text()).toContain('/city expected string, got integer');
  });

  it('toggles the logprobs view when log probabilities came back', async () => {
    m = await mountWithApp(ChatView);
    useChatFormStore().messages[0]!.content = 'Hi';
    await flushPromises();
    button(m.wrapper, 'Send').click();
    await flushPromises();
    const completion = makeCompletion(['Hello']);
    completion.choices[0]!.logprobs = { content: [{ token: 'Hello', logprob: -0.1, bytes: null, top_logprobs: [] }] };
    m.fake.controls.streams[0]!.finish({ output: completion });
    await flushPromises();
    button(m.wrapper, 'Logprobs').click();
    await flushPromises();
    expect(m.wrapper.find('.token').attributes('aria-label')).toBe('"Hello": 90.5%');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import type { CapturedEvent } from '@shared/contract/runs';
import MessagesView from '@/families/messages/views/MessagesView.vue';
import { useMessagesFormStore } from '@/families/messages/stores/messages-form';
import { useMessagesRunStore } from '@/families/messages/stores/messages-run';
import type { FakeStream } from '../fake-workbench';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

async function typeMessage(text: string, label = 'Message 1'): Promise<void> {
  await m.wrapper.find(`textarea[aria-label="${label}"]`).setValue(text);
}

async function send(): Promise<FakeStream> {
  button(m.wrapper, 'Send').click();
  await flushPromises();
  return m.fake.controls.streams.at(-1)!;
}

const sent = (stream: FakeStream): Record<string, unknown> => stream.input.request as unknown as Record<string, unknown>;

const EVENTS: CapturedEvent[] = [
  { t: 40, data: '{"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"svc-4","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}' },
  { t: 42, data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' },
  { t: 60, data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"One"}}' },
  { t: 80, data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" two"}}' },
  { t: 81, data: '{"type":"content_block_stop","index":0}' },
  { t: 82, data: '{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"###"},"usage":{"output_tokens":3}}' },
  { t: 83, data: '{"type":"message_stop"}' },
  { t: 84, data: '[DONE]' },
];

describe('MessagesView', () => {
  it('starts with max_tokens 1024 and blocks Send until a message is written', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    const form = useMessagesFormStore();
    expect(form.model).toBe('svc-4');
    expect(form.params.maxTokens).toBe(1024);
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain("Can't send: write a message to send");
    await typeMessage('Hello');
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
  });

  it('sends system, turns, sampling, stop_sequences and tools in the Messages shape', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    const form = useMessagesFormStore();
    await m.wrapper.find('#messages-system').setValue('Be brief.');
    await typeMessage('What is the weather in Paris?');
    form.params.temperature = 0.5;
    form.params.stopSequences = ['###', ''];
    form.params.tools = [
      { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ];
    form.params.toolChoice = { name: 'get_weather' };
    await flushPromises();
    const stream = await send();
    expect(stream.method).toBe('messages.send');
    expect(sent(stream)).toEqual({
      model: 'svc-4',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      system: 'Be brief.',
      temperature: 0.5,
      stop_sequences: ['###'],
      tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
      tool_choice: { type: 'tool', name: 'get_weather' },
      stream: true,
    });
  });

  it('sends system text blocks and a turn of several blocks (text and an image URL) as arrays', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    const form = useMessagesFormStore();
    form.systemMode = 'blocks';
    form.systemBlocks = ['You are terse.', 'Answer in French.'];
    await typeMessage('Describe this picture');
    button(m.wrapper, 'Add an image to message 1').click();
    await flushPromises();
    await m.wrapper.find('input[aria-label="Message 1 block 2 URL"]').setValue('https://example.com/cat.png');
    form.params.stream = false;
    const stream = await send();
    const body = sent(stream);
    expect(body.system).toEqual([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Answer in French.' },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Describe this picture' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
        ],
      },
    ]);
    expect(body.stream).toBe(false);
  });

  it('refuses stop_sequences on the reasoning model and says why', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    const form = useMessagesFormStore();
    await typeMessage('Think about it');
    form.params.stopSequences = ['END'];
    form.model = 'svc-3-mini';
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain("Can't send: stop_sequences is not supported by reasoning models");
    form.params.stopSequences = [];
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
  });

  it('streams the text, then shows stop_reason, stop_sequence, usage and the event timeline', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    await typeMessage('Count');
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    stream.emit({ type: 'delta', choice: 0, content: 'One' });
    useMessagesRunStore().flush();
    await flushPromises();
    expect(m.wrapper.find('.markdown-stub').text()).toBe('One');
    expect(m.wrapper.find('[aria-label="Streaming events"]').exists()).toBe(false);
    stream.emit({ type: 'delta', choice: 0, content: ' two' });
    stream.finish({
      output: { id: 'm1', type: 'message', role: 'assistant', model: 'svc-4', content: [{ type: 'text', text: 'One two' }], stop_reason: 'stop_sequence', stop_sequence: '###', usage: { input_tokens: 12, output_tokens: 3 } },
      events: EVENTS,
    });
    await flushPromises();
    expect(m.wrapper.find('.run-status').text()).toBe('completed');
    expect(m.wrapper.find('[aria-label="Stop reason"]').text()).toContain('stop_reasonstop_sequence');
    expect(m.wrapper.find('[aria-label="Stop reason"]').text()).toContain('"###"');
    const timeline = m.wrapper.find('[aria-label="Streaming events"]');
    expect(timeline.text()).toContain('message_start');
    expect(timeline.find('[aria-label="Block 0: text"]').text()).toContain('2 text_delta');
    expect(timeline.find('[aria-label="Block 0: text"]').text()).toContain('60 ms → 80 ms');
    expect(timeline.text()).toContain('message_stop');
    expect(m.wrapper.text()).toMatch(/Cost/);
  });

  it('adds the answer to the conversation as an assistant turn with a fresh user turn after it', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    await typeMessage('Hi');
    const stream = await send();
    stream.emit({ type: 'delta', choice: 0, content: 'Hello there' });
    stream.finish();
    await flushPromises();
    button(m.wrapper, 'Add to conversation').click();
    await flushPromises();
    expect(useMessagesFormStore().request.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello there' },
      { role: 'user', content: '' },
    ]);
  });

  it('answers a tool_use with a tool_result turn and sends the conversation on', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    const form = useMessagesFormStore();
    form.params.tools = [{ name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    await typeMessage('Weather in Paris?');
    const first = await send();
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } };
    first.finish({
      output: { id: 'm1', type: 'message', role: 'assistant', model: 'svc-4', content: [{ type: 'text', text: 'Let me check.' }, toolUse], stop_reason: 'tool_use', stop_sequence: null },
    });
    await flushPromises();
    expect(m.wrapper.text()).toContain('The model called a tool');
    expect(() => button(m.wrapper, 'Add to conversation')).toThrow();
    await m.wrapper.find('textarea#reply-toolu_1').setValue('{"temperature": 21}');
    button(m.wrapper, 'Send replies').click();
    await flushPromises();
    const second = m.fake.controls.streams[1]!;
    expect(sent(second).messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'text', text: 'Let me check.' }, toolUse] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temperature": 21}' }] },
    ]);
    expect(sent(second).tools).toEqual([{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }]);
  });

  it('keeps the partial output above the error when the run fails', async () => {
    m = await mountWithApp(MessagesView, { route: '/messages' });
    await typeMessage('Hi');
    const stream = await send();
    stream.emit({ type: 'delta', choice: 0, content: 'Partial' });
    stream.fail({ code: 'api_error', message: 'overloaded', status: 529, requestId: 'req-9' });
    await flushPromises();
    expect(m.wrapper.find('[role="alert"]').text()).toContain('overloaded');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('Partial');
  });
});

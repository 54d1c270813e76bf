import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import ToolCallsAnswer from '@/components/tools/ToolCallsAnswer.vue';
import type { ToolSpec } from '@shared/tools/tool-spec';
import type { PendingCall } from '@shared/tools/pending-calls';

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

const tools: ToolSpec[] = [
  { name: 'get_weather', description: '', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, savedReply: '{"temp": 21}' },
  { name: 'get_time', description: '', parameters: { type: 'object', properties: {} } },
];
const weatherCall: PendingCall = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' };
const timeCall: PendingCall = { id: 'call_2', name: 'get_time', arguments: '{}' };

function mountAnswer(props: { calls: PendingCall[] } & Record<string, unknown>): VueWrapper {
  wrapper = mount(ToolCallsAnswer, { props: { tools, ...props }, attachTo: document.body, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
  return wrapper;
}
const buttonNamed = (w: VueWrapper, name: string) => w.findAll('button').find((b) => b.text() === name)!;

describe('ToolCallsAnswer', () => {
  it('prefills the reply with the saved reply and sends it', async () => {
    const w = mountAnswer({ calls: [weatherCall] });
    expect((w.find('#reply-call_1').element as HTMLTextAreaElement).value).toBe('{"temp": 21}');
    expect(w.text()).toContain('Arguments match the get_weather schema.');
    await buttonNamed(w, 'Send replies').trigger('click');
    expect(w.emitted('send')).toEqual([[[{ callId: 'call_1', output: '{"temp": 21}' }]]]);
  });

  it('explains a reply that is not JSON next to it and blocks sending until it is fixed', async () => {
    const w = mountAnswer({ calls: [weatherCall] });
    await w.find('#reply-call_1').setValue('{"temp": warm}');
    expect(w.find('.reply-problem').text()).toBe(
      'The reply to get_weather is not valid JSON: Unexpected "w", expected a value at line 1, column 10 (position 9)',
    );
    expect(buttonNamed(w, 'Send replies').attributes('disabled')).toBeDefined();
    await w.find('#allow-text-replies').setValue(true);
    expect(w.find('.reply-problem').exists()).toBe(false);
    expect(buttonNamed(w, 'Send replies').attributes('disabled')).toBeUndefined();
  });

  it('answers parallel calls together, in call order', async () => {
    const w = mountAnswer({ calls: [weatherCall, timeCall] });
    expect(w.text()).toContain('The model called 2 tools');
    expect(w.text()).toContain('Write a reply to get_time (call_2).');
    await w.find('#reply-call_2').setValue('"12:00"');
    await buttonNamed(w, 'Send replies').trigger('click');
    expect(w.emitted('send')).toEqual([[[{ callId: 'call_1', output: '{"temp": 21}' }, { callId: 'call_2', output: '"12:00"' }]]]);
  });

  it('lists arguments that break the tool\'s schema', () => {
    const w = mountAnswer({ calls: [{ id: 'call_3', name: 'get_weather', arguments: '{"city": 3, "x": 1}' }] });
    expect(w.find('[aria-label="Problems with the arguments of get_weather"]').text()).toBe('city: expected string, got integer');
  });

  it('offers the loop only when every called tool has a saved reply', async () => {
    const w = mountAnswer({ calls: [weatherCall, timeCall] });
    expect(buttonNamed(w, 'Loop with saved replies').attributes('disabled')).toBeDefined();
    expect(w.text()).toContain('Loop needs a saved reply for every called tool: get_time has no saved reply.');
    await w.setProps({ calls: [weatherCall] });
    await buttonNamed(w, 'Loop with saved replies').trigger('click');
    expect(w.emitted('loop')).toHaveLength(1);
  });

  it('shows the loop turn and cancels it', async () => {
    const w = mountAnswer({ calls: [weatherCall], looping: true, turn: 3, maxTurns: 10 });
    expect(w.text()).toContain('Loop turn 3 / 10');
    await buttonNamed(w, 'Cancel loop').trigger('click');
    await flushPromises();
    expect(w.emitted('cancel')).toHaveLength(1);
  });
});

/**
 * The realtime console's tools: there is no Loop there, so the shared tools panel's saved reply
 * says what the console does with it: the auto-responder in main sends it, or (answered by hand)
 * nothing does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { reactive } from 'vue';
import { flushPromises } from '@vue/test-utils';
import ConnectFormPanel from '@/families/realtime/components/ConnectFormPanel.vue';
import { defaultConnectForm } from '@/families/realtime/lib/connect-form';
import { mountWithApp, type Mounted } from '../../mount-app';

let m: Mounted;
afterEach(() => {
  m?.wrapper.unmount();
  document.body.innerHTML = '';
});

const hint = () => document.querySelector('label[for="rt-tool-1-reply"]')?.textContent?.replace(/\s+/g, ' ').trim();

describe('the realtime console’s tools panel', () => {
  it('labels the saved reply as sent by the auto-responder, and as unused when calls are answered by hand', async () => {
    // As the view holds it: a reactive form the radios write into.
    const form = reactive({ ...defaultConnectForm(), autoRespond: true, tools: [{ name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: {} }, savedReply: '{"temp":21}' }] });
    m = await mountWithApp(ConnectFormPanel, { route: '/realtime', props: { modelValue: form, 'onUpdate:modelValue': (v: typeof form) => m.wrapper.setProps({ modelValue: v }) } });
    (document.querySelector('button[aria-label="Expand tool 1"]') as HTMLButtonElement).click();
    await flushPromises();
    expect(hint()).toBe('Saved reply (sent by the auto-responder)');
    expect(document.body.textContent).not.toContain('Loop');
    (document.querySelector('[data-test="auto-off"]') as HTMLInputElement).click();
    await flushPromises();
    expect(hint()).toBe('Saved reply (not used: tool calls are answered by hand)');
  });
});

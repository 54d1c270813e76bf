import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises } from '@vue/test-utils';
import LegacyView from '@/families/legacy/views/LegacyView.vue';
import { useLegacyFormStore } from '@/families/legacy/stores/legacy-form';
import { sampleCatalogueEntries } from '../fake-data';
import type { FakeStream } from '../fake-workbench';
import { button, mountWithApp, type Mounted } from '../mount-app';

let m: Mounted;
afterEach(() => m?.wrapper.unmount());

const REFUSAL = 'svc-3-mini is a reasoning model: the legacy endpoints do not support it. Use Chat or Responses.';

async function send(): Promise<FakeStream> {
  button(m.wrapper, 'Send').click();
  await flushPromises();
  return m.fake.controls.streams.at(-1)!;
}

const sent = (stream: FakeStream): Record<string, unknown> => stream.input.request as unknown as Record<string, unknown>;

async function openTab(name: string): Promise<void> {
  const tab = [...document.querySelectorAll('[role="tab"]')].find((t) => t.textContent?.includes(name)) as HTMLElement;
  tab.click();
  await flushPromises();
}

describe('LegacyView', () => {
  it('says the endpoints are legacy and sends one prompt as a string with streaming and usage', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    expect(m.wrapper.text()).toContain('superseded by /v1/chat/completions');
    await m.wrapper.find('#completions-prompt-1').setValue('The sea is');
    const stream = await send();
    expect(stream.method).toBe('completions.send');
    expect(sent(stream)).toEqual({ model: 'svc-4', prompt: 'The sea is', max_tokens: 128, stream: true, stream_options: { include_usage: true } });
  });

  it('sends several prompts as an array with n, and labels each choice by prompt and choice', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    const form = useLegacyFormStore();
    await m.wrapper.find('#completions-prompt-1').setValue('Roses are');
    button(m.wrapper, 'Add prompt').click();
    await flushPromises();
    await m.wrapper.find('#completions-prompt-2').setValue('Violets are');
    form.completions.n = 2;
    form.completions.echo = true;
    form.completions.stop = ['\n'];
    form.completions.seed = 7;
    await flushPromises();
    const stream = await send();
    expect(sent(stream)).toMatchObject({ prompt: ['Roses are', 'Violets are'], n: 2, echo: true, stop: ['\n'], seed: 7 });
    ['red', 'crimson', 'blue', 'violet'].forEach((word, i) => stream.emit({ type: 'delta', choice: i, content: word }));
    stream.finish();
    await flushPromises();
    const labels = m.wrapper.findAll('.choice-label').map((l) => l.text());
    expect(labels).toEqual([
      'prompt 1, choice 1 · index 0',
      'prompt 1, choice 2 · index 1',
      'prompt 2, choice 1 · index 2',
      'prompt 2, choice 2 · index 3',
    ]);
    expect(m.wrapper.find('[aria-label="prompt 2, choice 1"]').text()).toContain('blue');
  });

  it('starts on a model the endpoints accept when the catalogue lists the reasoning model first', async () => {
    const entries = sampleCatalogueEntries().sort((a, b) => (a.id === 'svc-3-mini' ? -1 : b.id === 'svc-3-mini' ? 1 : 0));
    m = await mountWithApp(LegacyView, { route: '/legacy', fake: { entries } });
    expect(useLegacyFormStore().model).toBe('svc-4');
    expect(m.wrapper.find('.reasoning-notice').exists()).toBe(false);
  });

  it('blocks both endpoints for the reasoning model with a notice saying what to use instead', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    useLegacyFormStore().model = 'svc-3-mini';
    await flushPromises();
    expect(m.wrapper.find('.reasoning-notice').text()).toBe(REFUSAL);
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain(`Can't send: ${REFUSAL}`);
    await openTab('Complete (/v1/complete)');
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    expect(m.wrapper.text()).toContain(`Can't send: ${REFUSAL}`);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    await flushPromises();
    expect(m.fake.controls.streams).toHaveLength(0);
  });

  it('sends the Human/Assistant prompt to /v1/complete without stream, and shows the stop reason', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    await openTab('Complete (/v1/complete)');
    expect((m.wrapper.find('#complete-prompt').element as HTMLTextAreaElement).value).toBe('\n\nHuman: Write a haiku about the sea.\n\nAssistant:');
    expect(m.wrapper.text()).toContain('the service does not support stream on /v1/complete');
    const completeForm = m.wrapper.find('#complete-prompt').element.closest('.legacy-form')!;
    expect(completeForm.querySelector('input[type="checkbox"]')).toBeNull();
    expect(m.wrapper.find('#completions-prompt-1').element.closest('.legacy-form')!.querySelector('#completions-stream')).not.toBeNull();
    useLegacyFormStore().complete.stopSequences = ['\n\nHuman:'];
    useLegacyFormStore().complete.temperature = 0.2;
    await flushPromises();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    await flushPromises();
    const stream = m.fake.controls.streams[0]!;
    expect(stream.method).toBe('completions.complete');
    expect(sent(stream)).toEqual({
      model: 'svc-4',
      prompt: '\n\nHuman: Write a haiku about the sea.\n\nAssistant:',
      max_tokens_to_sample: 256,
      stop_sequences: ['\n\nHuman:'],
      temperature: 0.2,
    });
    stream.emit({ type: 'delta', choice: 0, content: 'Waves fold into foam' });
    stream.finish();
    await flushPromises();
    expect(m.wrapper.find('.markdown-stub').text()).toBe('Waves fold into foam');
    expect(m.wrapper.find('.stop-reason').text()).toBe('stop_reason stop_sequence');
  });

  it('explains an out-of-range temperature under the field and blocks Send with it', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    useLegacyFormStore().completions.temperature = 3;
    await flushPromises();
    expect(m.wrapper.find('#completions-temperature-error').text()).toBe('temperature must be between 0 and 2');
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
  });

  it('blocks Send only in the tab whose number field holds text that is not a number (both tabs stay mounted)', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    const form = useLegacyFormStore();
    form.completions.prompts = ['Once upon a time'];
    form.complete.prompt = '\n\nHuman: Hi\n\nAssistant:';
    form.complete.maxTokensToSample = 64;
    await openTab('Complete');
    await m.wrapper.find('#complete-temperature').setValue('abc');
    await flushPromises();
    expect(button(m.wrapper, 'Send').disabled).toBe(true);
    await openTab('Completions');
    expect(m.wrapper.find('#complete-temperature').exists()).toBe(true);
    expect(button(m.wrapper, 'Send').disabled).toBe(false);
  });

  it('stops a streaming completion on Esc and keeps the partial text', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    const stream = await send();
    stream.emit({ type: 'delta', choice: 0, content: 'upon a' });
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    await flushPromises();
    expect(stream.cancelled).toBe(true);
    expect(m.wrapper.find('.run-status').text()).toBe('cancelled');
    expect(m.wrapper.find('.markdown-stub').text()).toBe('upon a');
  });

  it('sends logprobs and shows the returned legacy logprobs in the Logprobs view', async () => {
    m = await mountWithApp(LegacyView, { route: '/legacy' });
    useLegacyFormStore().completions.logprobs = 2;
    await flushPromises();
    const stream = await send();
    expect(sent(stream)).toMatchObject({ logprobs: 2 });
    stream.emit({ type: 'delta', choice: 0, content: ' calm' });
    stream.finish({
      output: {
        id: 'cmpl-1',
        object: 'text_completion',
        model: 'svc-4',
        choices: [{ index: 0, text: ' calm', finish_reason: 'stop', logprobs: { tokens: [' calm'], token_logprobs: [-0.2], top_logprobs: [{ ' calm': -0.2, ' grey': -2.1 }], text_offset: [0] } }],
      },
    });
    await flushPromises();
    button(m.wrapper, 'Logprobs').click();
    await flushPromises();
    await m.wrapper.find('[data-token-index="0"]').trigger('focus');
    expect(m.wrapper.find('[aria-label="Tokens"]').text()).toContain('calm');
    expect(m.wrapper.text()).toContain('grey');
  });
});

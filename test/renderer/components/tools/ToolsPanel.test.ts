import { afterEach, describe, expect, it } from 'vitest';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import ToolsPanel from '@/components/tools/ToolsPanel.vue';
import type { ToolSpec } from '@shared/tools/tool-spec';

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Weather now',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function mountPanel(tools: ToolSpec[], extra: Record<string, unknown> = {}): VueWrapper {
  wrapper = mount(ToolsPanel, {
    props: { modelValue: tools, 'onUpdate:modelValue': (v: ToolSpec[]) => wrapper!.setProps({ modelValue: v }), ...extra },
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });
  return wrapper;
}

const lastErrors = (w: VueWrapper): string[] => (w.emitted('errors')!.at(-1) as [string[]])[0];
const lastTools = (w: VueWrapper): ToolSpec[] => (w.emitted('update:modelValue')!.at(-1) as [ToolSpec[]])[0];
const buttonNamed = (w: VueWrapper, name: string) => w.findAll('button').find((b) => b.attributes('aria-label') === name || b.text() === name)!;

describe('ToolsPanel', () => {
  it("says what the saved reply is for: the text playgrounds' Loop by default, the host's own hint when given", async () => {
    const w = mountPanel([weather]);
    await buttonNamed(w, 'Expand tool 1').trigger('click');
    expect(w.find('label[for="tool-1-reply"]').text()).toBe('Saved reply (prefills the answer; used by Loop)');
    await w.setProps({ replyHint: 'sent by the auto-responder' });
    expect(w.find('label[for="tool-1-reply"]').text()).toBe('Saved reply (sent by the auto-responder)');
  });

  it('shows a schema that does not parse with its line and column, and reports it as blocking', async () => {
    const w = mountPanel([weather]);
    expect(lastErrors(w)).toEqual([]);
    await buttonNamed(w, 'Expand tool 1').trigger('click');
    await w.find('#tool-1-parameters').setValue('{\n  "type": "object",\n  "properties": {\n}');
    await flushPromises();
    const message = 'Not valid JSON: Unexpected end of input, expected \',\' or \'}\' at line 4, column 2 (position 41)';
    expect(w.find('#tool-1-parameters-problems').text()).toBe(message);
    expect(lastErrors(w)).toEqual([`"get_weather" parameters: ${message}`]);
  });

  it('reports a parameters schema that is not an object schema', async () => {
    const w = mountPanel([weather]);
    await buttonNamed(w, 'Expand tool 1').trigger('click');
    await w.find('#tool-1-parameters').setValue('{"type": "strin"}');
    await flushPromises();
    expect(lastErrors(w)).toEqual([
      '"get_weather" parameters: The schema must describe an object: set "type": "object" at the top.',
      '"get_weather" parameters: type: unknown type "strin": use one of string, number, integer, boolean, object, array, null',
    ]);
  });

  it('emits the edited tools and explains a bad name next to it', async () => {
    const w = mountPanel([weather]);
    await buttonNamed(w, 'Expand tool 1').trigger('click');
    await w.find('#tool-1-name').setValue('get weather');
    await flushPromises();
    expect(lastTools(w)[0]?.name).toBe('get weather');
    expect(w.text()).toContain('"get weather": a name is 1-64 letters, digits, underscores or dashes (no spaces or dots).');
    expect(lastErrors(w)).toHaveLength(1);
  });

  it('adds, duplicates with a free name, and removes tools, counting them against 128', async () => {
    const w = mountPanel([weather]);
    expect(w.text()).toContain('1 / 128');
    await buttonNamed(w, 'Duplicate tool 1').trigger('click');
    await buttonNamed(w, 'Add tool').trigger('click');
    await flushPromises();
    expect(lastTools(w).map((t) => t.name)).toEqual(['get_weather', 'get_weather_copy', 'new_tool']);
    expect(w.text()).toContain('3 / 128');
    await buttonNamed(w, 'Remove tool 2').trigger('click');
    await flushPromises();
    expect(lastTools(w).map((t) => t.name)).toEqual(['get_weather', 'new_tool']);
  });

  it('refuses a 129th tool', async () => {
    const many = Array.from({ length: 128 }, (_, i) => ({ ...weather, name: `tool_${i}` }));
    const w = mountPanel(many);
    expect(w.text()).toContain('128 / 128');
    expect(buttonNamed(w, 'Add tool').attributes('disabled')).toBeDefined();
    expect(buttonNamed(w, 'Duplicate tool 1').attributes('disabled')).toBeDefined();
    expect(w.text()).toContain('The limit is 128 tools.');
  });

  it('refuses to import a file with more than 128 tools and keeps the current set', async () => {
    const w = mountPanel([weather]);
    const file = new File([JSON.stringify(Array.from({ length: 129 }, (_, i) => ({ ...weather, name: `t${i}` })))], 'big.json', { type: 'application/json' });
    const input = w.find('input[type="file"]');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
    expect(w.text()).toContain('big.json has 129 tools; at most 128 can be used. Nothing was imported.');
    expect(w.text()).toContain('1 / 128');
  });

  it('imports a chat tools array with its names', async () => {
    const w = mountPanel([]);
    const file = new File([JSON.stringify([{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }])], 'tools.json');
    const input = w.find('input[type="file"]');
    Object.defineProperty(input.element, 'files', { value: [file], configurable: true });
    await input.trigger('change');
    await flushPromises();
    expect(lastTools(w)).toEqual([{ name: 'lookup', description: '', parameters: { type: 'object' } }]);
    expect(w.text()).toContain('Imported 1 tool from tools.json.');
  });

  it('blocks a tool choice that names a removed tool', async () => {
    const w = mountPanel([weather]);
    await w.setProps({ choice: { name: 'get_weather' } });
    await buttonNamed(w, 'Remove tool 1').trigger('click');
    await flushPromises();
    expect(w.emitted('update:choice')!.at(-1)).toEqual(['auto']);
  });
});

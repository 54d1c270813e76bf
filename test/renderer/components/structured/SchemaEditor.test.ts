import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import SchemaEditor from '@/components/structured/SchemaEditor.vue';
import type { ResponseFormatSpec } from '@shared/json-schema/response-format';

let wrapper: VueWrapper | undefined;
afterEach(() => {
  wrapper?.unmount();
  document.body.innerHTML = '';
});

function mountEditor(spec: ResponseFormatSpec): VueWrapper {
  wrapper = mount(SchemaEditor, {
    props: { modelValue: spec, 'onUpdate:modelValue': (v: ResponseFormatSpec) => wrapper!.setProps({ modelValue: v }) },
    attachTo: document.body,
    global: { plugins: [[PrimeVue, { theme: 'none' }]] },
  });
  return wrapper;
}
const last = <T>(w: VueWrapper, event: string): T => (w.emitted(event)!.at(-1) as [T])[0];

describe('SchemaEditor', () => {
  it('emits the chat response_format and the flat Responses text.format of a json_schema', () => {
    const w = mountEditor({ type: 'json_schema', name: 'answer', strict: true, schemaText: '{"type":"object"}' });
    expect(last(w, 'responseFormat')).toEqual({ type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } });
    expect(last(w, 'textFormat')).toEqual({ type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true });
    expect(last(w, 'errors')).toEqual([]);
  });

  it('blocks a schema that does not parse, showing where', async () => {
    const w = mountEditor({ type: 'json_schema', name: 'answer', strict: true, schemaText: '{"type":"object"}' });
    await w.find('#format-schema').setValue('{"type" "object"}');
    expect(last<string[]>(w, 'errors')).toEqual([
      'Response schema: Not valid JSON: Unexpected "\\"", expected \':\' at line 1, column 9 (position 8)',
    ]);
    expect(w.find('#format-schema-problems').text()).toContain('line 1, column 9');
  });

  it('blocks a schema name the service refuses', async () => {
    const w = mountEditor({ type: 'json_schema', name: 'my answer', strict: true, schemaText: '{}' });
    expect(last<string[]>(w, 'errors')).toEqual(['The schema name must be 1-64 letters, digits, underscores or dashes.']);
  });

  it('sends nothing for text and json_object without a schema', () => {
    const w = mountEditor({ type: 'json_object', name: '', strict: true, schemaText: '' });
    expect(last(w, 'responseFormat')).toEqual({ type: 'json_object' });
    expect(last(w, 'errors')).toEqual([]);
    expect(w.find('#format-schema').exists()).toBe(false);
  });
});

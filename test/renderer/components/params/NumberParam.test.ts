import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import { createPinia, setActivePinia } from 'pinia';
import { useNumberEntriesStore } from '@/stores/number-entries';
import type { LimitViolation } from '@shared/limits';
import NumberParam from '@/components/params/NumberParam.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

type Props = { field: string; problems: LimitViolation[]; inputId?: string; hint?: string; integer?: boolean; modelValue?: number | null };

const mountParam = (props: Props): VueWrapper => {
  const pinia = createPinia();
  setActivePinia(pinia);
  return mount(NumberParam, {
    props: { modelValue: null, 'onUpdate:modelValue': (v: number | null) => w?.setProps({ modelValue: v }), ...props },
    global: { plugins: [[PrimeVue, { theme: 'none' }], pinia] },
  });
};

/** What the model was set to, in order. */
const emitted = (wrapper: VueWrapper): unknown[] => (wrapper.emitted('update:modelValue') ?? []).map((e) => e[0]);

describe('NumberParam', () => {
  it('labels the input with the wire name under the default id and shows the range as placeholder', () => {
    w = mountParam({ field: 'temperature', problems: [], hint: '0 to 2' });
    expect(w.find('label').text()).toBe('temperature');
    expect(w.find('label').attributes('for')).toBe('param-temperature');
    expect(w.find('input#param-temperature').attributes('placeholder')).toBe('0 to 2');
    expect(w.find('.field-error').exists()).toBe(false);
  });

  it('shows the first problem it is given under the input and points the input at it', () => {
    w = mountParam({
      field: 'top_p',
      inputId: 'messages-top_p',
      problems: [
        { field: 'top_p', message: 'top_p must be between 0 and 1' },
        { field: 'top_p', message: 'second problem' },
      ],
    });
    expect(w.find('#messages-top_p-error').text()).toBe('top_p must be between 0 and 1');
    expect(w.find('input#messages-top_p').attributes('aria-describedby')).toBe('messages-top_p-error');
    expect(w.find('input#messages-top_p').attributes('aria-invalid')).toBe('true');
    expect(w.text()).not.toContain('second problem');
  });

  it('points the input at nothing while the value breaks no rule', () => {
    w = mountParam({ field: 'top_p', problems: [] });
    expect(w.find('input#param-top_p').attributes('aria-describedby')).toBeUndefined();
  });

  it('keeps "1.5" as typed in a whole-number field, explains it once, and reports it so Send is disabled', async () => {
    w = mountParam({ field: 'seed', problems: [], integer: true, modelValue: 4 });
    await w.find('input').setValue('1.5');
    expect((w.find('input').element as HTMLInputElement).value).toBe('1.5');
    expect(w.findAll('.field-error').map((e) => e.text())).toEqual(['seed takes a whole number; "1.5" has a fraction']);
    expect(emitted(w)).toEqual([]);
    expect(useNumberEntriesStore().violations).toEqual([{ field: 'seed', message: 'seed takes a whole number; "1.5" has a fraction' }]);
    await w.find('input').setValue('15');
    expect(emitted(w)).toEqual([15]);
    expect(useNumberEntriesStore().violations).toEqual([]);
    expect(w.find('.field-error').exists()).toBe(false);
  });

  it('sets 1e9 as one billion and a comma decimal not at all (it is explained)', async () => {
    w = mountParam({ field: 'seed', problems: [], integer: true });
    await w.find('input').setValue('1e9');
    expect(emitted(w)).toEqual([1_000_000_000]);
    await w.find('input').setValue('0,7');
    expect(emitted(w)).toEqual([1_000_000_000]);
    expect(w.find('.field-error').text()).toContain('uses a comma');
  });

  it('shows its own text problem instead of the form rule about the previous value, never both', async () => {
    w = mountParam({ field: 'temperature', problems: [{ field: 'temperature', message: 'temperature must be between 0 and 2' }], modelValue: 3 });
    await w.find('input').setValue('abc');
    expect(w.findAll('.field-error').map((e) => e.text())).toEqual(['temperature: "abc" is not a number']);
  });

  it('empties the field to unset the parameter, and steps with the arrow keys', async () => {
    w = mountParam({ field: 'temperature', problems: [], modelValue: 0.2 });
    expect((w.find('input').element as HTMLInputElement).value).toBe('0.2');
    await w.find('input').trigger('keydown', { key: 'ArrowUp' });
    expect(emitted(w)).toEqual([0.3]);
    await w.find('input').setValue('');
    expect(emitted(w)).toEqual([0.3, null]);
  });

  it('shows a value set from outside (a loaded request) and withdraws its problem when unmounted', async () => {
    w = mountParam({ field: 'n', problems: [], integer: true, modelValue: 1 });
    await w.find('input').setValue('x');
    await w.setProps({ modelValue: 2 });
    expect((w.find('input').element as HTMLInputElement).value).toBe('2');
    expect(useNumberEntriesStore().violations).toEqual([]);
    await w.find('input').setValue('y');
    w.unmount();
    expect(useNumberEntriesStore().violations).toEqual([]);
    w = undefined;
  });
});

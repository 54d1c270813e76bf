import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import type { LimitViolation } from '@shared/limits';
import NumberParam from '@/components/params/NumberParam.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

const mountParam = (props: { field: string; problems: LimitViolation[]; inputId?: string; hint?: string }): VueWrapper =>
  mount(NumberParam, { props: { modelValue: null, ...props }, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });

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
});

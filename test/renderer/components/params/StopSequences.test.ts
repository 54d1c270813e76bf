import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import PrimeVue from 'primevue/config';
import type { LimitViolation } from '@shared/limits';
import StopSequences from '@/components/params/StopSequences.vue';

let w: VueWrapper | undefined;
afterEach(() => w?.unmount());

interface StopProps {
  field: string;
  problems: LimitViolation[];
  modelValue: string[];
  itemLabel?: string;
  'onUpdate:modelValue'?: (v: string[]) => void;
}
const mountStops = (props: StopProps): VueWrapper =>
  mount(StopSequences, { props, global: { plugins: [[PrimeVue, { theme: 'none' }]] } });
const labels = (wrapper: VueWrapper): string[] => wrapper.findAll('.stop-row [aria-label]').map((e) => e.attributes('aria-label')!);

describe('StopSequences', () => {
  it('names each entry after the wire field unless given an item label', () => {
    w = mountStops({ field: 'stop_sequences', problems: [], modelValue: ['END'] });
    expect(w.find('legend').text()).toContain('stop_sequences');
    expect(labels(w)).toEqual(['stop_sequences 1', 'Remove stop_sequences 1']);
    w.unmount();
    w = mountStops({ field: 'stop', itemLabel: 'Stop sequence', problems: [], modelValue: ['END'] });
    expect(labels(w)).toEqual(['Stop sequence 1', 'Remove stop sequence 1']);
  });

  it('adds, edits and removes entries through v-model', async () => {
    const updates: string[][] = [];
    w = mountStops({ field: 'stop', problems: [], modelValue: ['a', 'b'], 'onUpdate:modelValue': (v: string[]) => updates.push(v) });
    await w.findAll('button').find((b) => b.text() === 'Add stop sequence')!.trigger('click');
    await w.find('[aria-label="Remove stop 1"]').trigger('click');
    await w.find('input').setValue('z');
    expect(updates).toEqual([['a', 'b', ''], ['b'], ['z', 'b']]);
  });

  it('shows the first problem and marks the inputs invalid', () => {
    w = mountStops({ field: 'stop', problems: [{ field: 'stop', message: 'at most 4 stop sequences' }], modelValue: ['a'] });
    expect(w.find('.field-error').text()).toBe('at most 4 stop sequences');
    expect(w.find('input').classes()).toContain('p-invalid');
  });
});

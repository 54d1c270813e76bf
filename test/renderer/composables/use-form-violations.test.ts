import { beforeEach, describe, expect, it } from 'vitest';
import { ref } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import { useNumberEntriesStore } from '../../../renderer/src/stores/number-entries';
import { editorErrors } from '../../../renderer/src/lib/form-violations';
import { useFormViolations } from '../../../renderer/src/composables/use-form-violations';

describe('useFormViolations()', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('puts a number field showing text that is not a number first: the form holds its last valid value', () => {
    const form = useFormViolations(() => [[{ field: 'messages', message: 'write a message to send' }]]);
    useNumberEntriesStore().report('param-seed', { field: 'seed', message: 'seed takes a whole number; "1.5" has a fraction' });
    expect(form.blockedReason.value).toBe('seed takes a whole number; "1.5" has a fraction');
    expect(form.violationsFor('seed')).toEqual([{ field: 'seed', message: 'seed takes a whole number; "1.5" has a fraction' }]);
    useNumberEntriesStore().report('param-seed', null);
    expect(form.blockedReason.value).toBe('write a message to send');
  });

  it('tells the sources in order, each message once, and updates with the form', () => {
    const empty = ref(true);
    const tools = ref<string[]>(['line 1, column 3: expected a value']);
    const form = useFormViolations(() => [
      empty.value ? [{ field: 'messages', message: 'write a message to send' }] : [],
      editorErrors('tools', tools.value),
      [{ field: 'tools.0.name', message: 'line 1, column 3: expected a value' }],
    ]);
    expect(form.violations.value).toEqual([
      { field: 'messages', message: 'write a message to send' },
      { field: 'tools', message: 'line 1, column 3: expected a value' },
    ]);
    expect(form.blockedReason.value).toBe('write a message to send');
    empty.value = false;
    tools.value = [];
    expect(form.blockedReason.value).toBe('line 1, column 3: expected a value');
    expect(form.violationsFor('tools')).toEqual([{ field: 'tools.0.name', message: 'line 1, column 3: expected a value' }]);
    expect(form.violationsFor('tool')).toEqual([]);
  });

  it('is clear when nothing is wrong', () => {
    const form = useFormViolations(() => [[], []]);
    expect(form.violations.value).toEqual([]);
    expect(form.blockedReason.value).toBeNull();
  });
});

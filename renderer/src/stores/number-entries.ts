/**
 * Number fields whose text is not a valid number right now (see lib/number-field.ts). The field
 * keeps the text as typed and its model keeps the last valid value, so the request itself cannot
 * say what is wrong: every form's violations (use-form-violations.ts) start with these, which
 * disables Send with the reason. A field reports on each edit and withdraws when it is unmounted.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { LimitViolation } from '@shared/limits';

export const useNumberEntriesStore = defineStore('number-entries', () => {
  const invalid = ref(new Map<string, LimitViolation>());

  /** Field `inputId` is now invalid (`problem`) or fine (null). */
  function report(inputId: string, problem: LimitViolation | null): void {
    if (problem) invalid.value.set(inputId, problem);
    else invalid.value.delete(inputId);
  }

  /** Every field's problem, in the order the fields reported them. */
  const violations = computed(() => [...invalid.value.values()]);

  return { violations, report };
});

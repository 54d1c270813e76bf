/**
 * The form-violation pipeline every request form shares: its sources of problems, in the order
 * they should be told (the first one is why Send is disabled), checked against the request schema
 * and the shared validators, with the same message said only once. Its pure sources (schemaIssues,
 * editorErrors) are in lib/form-violations.ts.
 */
import { computed, type ComputedRef } from 'vue';
import type { LimitViolation } from '@shared/limits';
import { useNumberEntriesStore } from '../stores/number-entries';

export interface FormViolations {
  /** Every problem, in order, each message once. */
  violations: ComputedRef<LimitViolation[]>;
  /** Why Send is disabled, or null when the request can go. */
  blockedReason: ComputedRef<string | null>;
  /** The problems of one field and its sub-paths (`tools`, `tools.0.name`, `messages[2]`), for the message under that control. */
  violationsFor(field: string): LimitViolation[];
}

/** Keeps the first violation of each message. */
export function uniqueMessages(list: readonly LimitViolation[]): LimitViolation[] {
  const seen = new Set<string>();
  return list.filter((v) => (seen.has(v.message) ? false : (seen.add(v.message), true)));
}

/**
 * `sources()` returns the lists of problems in the order they should be told. Number fields whose
 * text is not a number come first: the request holds their last valid value, not what is shown.
 * `numberScope` limits those to one form's fields (provideNumberScope); by default every number
 * field on screen counts.
 */
export function useFormViolations(sources: () => ReadonlyArray<readonly LimitViolation[]>, numberScope?: string): FormViolations {
  const entries = useNumberEntriesStore();
  const violations = computed(() => uniqueMessages([entries.violationsIn(numberScope), ...sources()].flat()));
  return {
    violations,
    blockedReason: computed(() => violations.value[0]?.message ?? null),
    violationsFor: (field) => violations.value.filter((v) => v.field === field || v.field.startsWith(`${field}.`) || v.field.startsWith(`${field}[`)),
  };
}

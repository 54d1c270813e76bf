/**
 * Number fields whose text is not a valid number right now (see lib/number-field.ts). The field
 * keeps the text as typed and its model keeps the last valid value, so the request itself cannot
 * say what is wrong: a form's violations (use-form-violations.ts) start with these, which disables
 * Send with the reason. A field reports on each edit and withdraws when it is unmounted.
 *
 * Each field reports under the form it belongs to (its scope, from `provideNumberScope()` above it;
 * `view` when none): Legacy keeps both of its tabs' forms mounted, and a bad field in the hidden
 * one must not block Send in the other.
 */
import { defineStore } from 'pinia';
import { computed, inject, provide, ref, type InjectionKey } from 'vue';
import type { LimitViolation } from '@shared/limits';

/** The scope of fields with no `provideNumberScope()` above them: the view on screen. */
export const VIEW_SCOPE = 'view';
const SCOPE_KEY: InjectionKey<string> = Symbol('number-scope');

/** Number fields below the calling component report under `scope` (a form of its own). */
export function provideNumberScope(scope: string): void {
  provide(SCOPE_KEY, scope);
}

/** The scope a number field reports under. */
export function injectNumberScope(): string {
  return inject(SCOPE_KEY, VIEW_SCOPE);
}

export const useNumberEntriesStore = defineStore('number-entries', () => {
  const invalid = ref(new Map<string, LimitViolation & { scope: string }>());

  /** Field `inputId` of form `scope` is now invalid (`problem`) or fine (null). */
  function report(inputId: string, problem: LimitViolation | null, scope: string = VIEW_SCOPE): void {
    if (problem) invalid.value.set(inputId, { ...problem, scope });
    else invalid.value.delete(inputId);
  }

  /** Every field's problem, in the order the fields reported them. */
  const violations = computed<LimitViolation[]>(() => [...invalid.value.values()].map(({ field, message }) => ({ field, message })));

  /** The problems of one form's fields (all of them when `scope` is undefined). */
  function violationsIn(scope: string | undefined): LimitViolation[] {
    if (scope === undefined) return violations.value;
    return [...invalid.value.values()].filter((v) => v.scope === scope).map(({ field, message }) => ({ field, message }));
  }

  return { violations, report, violationsIn };
});

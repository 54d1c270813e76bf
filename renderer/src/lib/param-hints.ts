/**
 * Placeholder hints and option lists every playground's parameter controls share, so one limit
 * reads the same way in Chat, Responses, Messages and the legacy forms.
 */
import { LIMITS } from '@shared/limits';

/** "0 to 2": the allowed range of a numeric parameter, shown as its placeholder. */
export function rangeHint(r: { min: number; max: number }): string {
  return `${r.min} to ${r.max}`;
}

/** reasoning effort choices, with "default" (unset) first. */
export const EFFORT_OPTIONS: Array<{ label: string; value: (typeof LIMITS.reasoningEffort)[number] | null }> = [
  { label: 'default', value: null },
  ...LIMITS.reasoningEffort.map((e) => ({ label: e, value: e })),
];

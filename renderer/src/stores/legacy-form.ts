/**
 * The legacy playground's forms: `/v1/completions` and `/v1/complete`, one model shared by both
 * tabs, and what blocks each tab's Send. A reasoning model is refused by both endpoints, so it
 * blocks Send with the notice the view shows.
 */
import { defineStore, storeToRefs } from 'pinia';
import { computed, ref } from 'vue';
import { CompleteRequestSchema, CompletionsRequestSchema } from '@shared/contract/completions';
import type { LimitViolation } from '@shared/limits';
import { validateCompleteRequest, validateCompletionsRequest } from '@shared/validate/completions';
import type { ZodType } from 'zod';
import { useModelsStore } from './models';
import { isReasoningModel, legacyReasoningNotice } from '../lib/legacy-reasoning';
import {
  buildCompleteRequest,
  buildCompletionsRequest,
  completeFormFromRequest,
  completionsFormFromRequest,
  defaultCompleteForm,
  defaultCompletionsForm,
  type CompleteForm,
  type CompletionsForm,
} from '../lib/legacy-form';

export type LegacyTab = 'completions' | 'complete';

function uniqueMessages(list: LimitViolation[]): LimitViolation[] {
  const seen = new Set<string>();
  return list.filter((v) => (seen.has(v.message) ? false : (seen.add(v.message), true)));
}

function schemaIssues(schema: ZodType, body: unknown): LimitViolation[] {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'request', message: i.message }));
}

export const useLegacyFormStore = defineStore('legacy-form', () => {
  const tab = ref<LegacyTab>('completions');
  const model = ref('');
  const completions = ref<Omit<CompletionsForm, 'model'>>(defaultCompletionsForm());
  const complete = ref<Omit<CompleteForm, 'model'>>(defaultCompleteForm());
  const { rows } = storeToRefs(useModelsStore());

  const reasoning = computed(() => isReasoningModel(model.value, rows.value));
  const reasoningNotice = computed(() => (reasoning.value ? legacyReasoningNotice(model.value) : null));
  const completionsRequest = computed(() => buildCompletionsRequest({ ...completions.value, model: model.value }));
  const completeRequest = computed(() => buildCompleteRequest({ ...complete.value, model: model.value }));

  const completionsViolations = computed<LimitViolation[]>(() => {
    if (reasoningNotice.value) return [{ field: 'model', message: reasoningNotice.value }];
    const found: LimitViolation[] = [];
    if (completions.value.prompts.every((p) => !p.trim())) found.push({ field: 'prompt', message: 'write a prompt to send' });
    found.push(...schemaIssues(CompletionsRequestSchema, completionsRequest.value));
    found.push(...validateCompletionsRequest(completionsRequest.value));
    return uniqueMessages(found);
  });

  const completeViolations = computed<LimitViolation[]>(() => {
    if (reasoningNotice.value) return [{ field: 'model', message: reasoningNotice.value }];
    return uniqueMessages([...schemaIssues(CompleteRequestSchema, completeRequest.value), ...validateCompleteRequest(completeRequest.value)]);
  });

  /** The active tab's violations of one field (and its sub-paths). */
  function violationsFor(which: LegacyTab, field: string): LimitViolation[] {
    const list = which === 'completions' ? completionsViolations.value : completeViolations.value;
    return list.filter((v) => v.field === field || v.field.startsWith(`${field}.`) || v.field.startsWith(`${field}[`));
  }

  const blockedReason = computed(() => (tab.value === 'completions' ? completionsViolations.value : completeViolations.value)[0]?.message ?? null);

  let defaulted = false;
  /**
   * Once per session: a fresh form (or one the model picker filled with the catalogue's first
   * entry) moves off a reasoning model to the first model the legacy endpoints accept.
   */
  function pickDefaultModel(): void {
    if (defaulted || rows.value.length === 0) return;
    defaulted = true;
    if (model.value && !reasoning.value) return;
    const usable = rows.value.find((r) => r.kind === 'language' && !isReasoningModel(r.id, rows.value));
    if (usable) model.value = usable.id;
  }

  /** Fills one tab from a recorded request and shows that tab (Re-run in playground from History). */
  function loadRequest(endpoint: LegacyTab, body: unknown): void {
    defaulted = true;
    if (endpoint === 'completions') {
      const { model: m, ...rest } = completionsFormFromRequest(body);
      completions.value = rest;
      model.value = m;
    } else {
      const { model: m, ...rest } = completeFormFromRequest(body);
      complete.value = rest;
      model.value = m;
    }
    tab.value = endpoint;
  }

  function addPrompt(): void {
    completions.value.prompts.push('');
  }

  function removePrompt(i: number): void {
    if (completions.value.prompts.length > 1) completions.value.prompts.splice(i, 1);
  }

  return {
    tab, model, completions, complete, reasoning, reasoningNotice, completionsRequest, completeRequest,
    completionsViolations, completeViolations, blockedReason, violationsFor, pickDefaultModel, loadRequest, addPrompt, removePrompt,
  };
});

/**
 * The legacy playground's forms: `/v1/completions` and `/v1/complete`, one model shared by both
 * tabs, and what blocks each tab's Send. A reasoning model is refused by both endpoints, so it
 * blocks Send with the notice the view shows.
 */
import { schemaIssues } from '../../../lib/form-violations';
import { useFormViolations } from '../../../composables/use-form-violations';
import { useDraft } from '../../../composables/use-draft';
import { overDefaults, savedString } from '../../../lib/draft-fields';
import { defineStore, storeToRefs } from 'pinia';
import { computed, ref } from 'vue';
import { CompleteRequestSchema, CompletionsRequestSchema } from '@shared/families/legacy/contract';
import type { LimitViolation } from '@shared/limits';
import { validateCompleteRequest, validateCompletionsRequest } from '@shared/validate/completions';
import { useModelsStore } from '../../../stores/models';
import { useRequestHeadersStore } from '../../../stores/request-headers';
import { isReasoningModel, legacyReasoningNotice } from '../../../lib/legacy-reasoning';
import {
  buildCompleteRequest,
  buildCompletionsRequest,
  completeFormFromRequest,
  completionsFormFromRequest,
  defaultCompleteForm,
  defaultCompletionsForm,
  type CompleteForm,
  type CompletionsForm,
} from '../../../lib/legacy-form';

export type LegacyTab = 'completions' | 'complete';

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

  // The extra request headers' problems block Send like the form's own.
  const headers = useRequestHeadersStore();
  const completionsForm = useFormViolations(() =>
    reasoningNotice.value
      ? [[{ field: 'model', message: reasoningNotice.value }]]
      : [
          completions.value.prompts.every((p) => !p.trim()) ? [{ field: 'prompt', message: 'write a prompt to send' }] : [],
          schemaIssues(CompletionsRequestSchema, completionsRequest.value),
          validateCompletionsRequest(completionsRequest.value),
          headers.violations('legacy'),
        ],
    'completions',
  );
  const completeForm = useFormViolations(() =>
    reasoningNotice.value
      ? [[{ field: 'model', message: reasoningNotice.value }]]
      : [schemaIssues(CompleteRequestSchema, completeRequest.value), validateCompleteRequest(completeRequest.value), headers.violations('legacy')],
    'complete',
  );
  const completionsViolations = completionsForm.violations;
  const completeViolations = completeForm.violations;

  /** The active tab's violations of one field (and its sub-paths). */
  function violationsFor(which: LegacyTab, field: string): LimitViolation[] {
    return (which === 'completions' ? completionsForm : completeForm).violationsFor(field);
  }

  const blockedReason = computed(() => (tab.value === 'completions' ? completionsForm : completeForm).blockedReason.value);

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

  /** Fills one tab from a recorded request and shows that tab (Open in playground from History). */
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

  /** The draft: both tabs and the shared model. New keeps the model and the tab, and empties both forms. */
  const draft = useDraft(
    'legacy',
    () => ({ tab: tab.value, model: model.value, completions: completions.value, complete: complete.value }),
    (saved) => {
      if (saved) {
        tab.value = saved.tab === 'complete' ? 'complete' : 'completions';
        model.value = savedString(saved, 'model');
      }
      completions.value = overDefaults(defaultCompletionsForm(), saved?.completions);
      complete.value = overDefaults(defaultCompleteForm(), saved?.complete);
    },
  );

  return {
    draft, tab, model, completions, complete, reasoning, reasoningNotice, completionsRequest, completeRequest,
    completionsViolations, completeViolations, blockedReason, violationsFor, pickDefaultModel, loadRequest, addPrompt, removePrompt,
  };
});

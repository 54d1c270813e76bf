/**
 * The Responses playground's editable form and what the next request continues from (a new
 * chain, a stored response, or a compaction), with what is wrong with the request that would be
 * sent. `blockedReason` disables Send and says why.
 */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { ResponsesRequestSchema } from '@shared/contract/responses';
import type { LimitViolation } from '@shared/limits';
import { validateResponsesRequest } from '@shared/validate/responses';
import { withSavedReplies } from '@shared/tools/tool-spec';
import { useModelsStore } from './models';
import {
  buildResponsesRequest,
  defaultResponsesForm,
  formFromResponsesRequest,
  instructionsBlockedReason,
  isReasoningModel,
  type Continuation,
  type ResponsesForm,
} from '../lib/responses-form';

export const useResponsesFormStore = defineStore('responses-form', () => {
  const form = ref<ResponsesForm>(defaultResponsesForm());
  const target = ref<Continuation>({ kind: 'new' });
  /** Set when the node to continue from cannot be used (deleted, expired...): blocks Send. */
  const targetBlocked = ref<string | null>(null);
  /** Problems the tools and schema editors report (JSON positions, schema checks); set by the view. */
  const toolEditorErrors = ref<string[]>([]);
  const formatErrors = ref<string[]>([]);
  const models = useModelsStore();

  const reasoningModel = computed(() => {
    const row = models.languageModels.find((r) => r.id === form.value.model || r.aliases.includes(form.value.model));
    return isReasoningModel(form.value.model, row ? [row.id, ...row.aliases] : []);
  });
  const request = computed(() => buildResponsesRequest(form.value, target.value, { reasoningModel: reasoningModel.value }));
  const instructionsBlocked = computed(() => instructionsBlockedReason(target.value));

  const violations = computed<LimitViolation[]>(() => {
    const found: LimitViolation[] = [];
    if (targetBlocked.value) found.push({ field: 'previous_response_id', message: targetBlocked.value });
    if (!form.value.input.trim()) found.push({ field: 'input', message: 'write a message to send' });
    if (form.value.tools.length) found.push(...toolEditorErrors.value.map((message) => ({ field: 'tools', message })));
    found.push(...formatErrors.value.map((message) => ({ field: 'text.format', message })));
    const parsed = ResponsesRequestSchema.safeParse(request.value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) found.push({ field: issue.path.join('.') || 'request', message: issue.message });
    }
    const emptyInput = !form.value.input.trim();
    // An empty input is already said once, in the user's terms ("write a message").
    found.push(...validateResponsesRequest(request.value, { reasoningModel: reasoningModel.value }).filter((v) => !(emptyInput && v.field.startsWith('input'))));
    const seen = new Set<string>();
    return found.filter((v) => (seen.has(v.message) ? false : (seen.add(v.message), true)));
  });

  /** Violations of one field (and its sub-paths), for the message under that control. */
  function violationsFor(field: string): LimitViolation[] {
    return violations.value.filter((v) => v.field === field || v.field.startsWith(`${field}.`) || v.field.startsWith(`${field}[`));
  }

  const blockedReason = computed(() => violations.value[0]?.message ?? null);

  /** Points the next request at a node (or a new chain), with why it cannot be used, if so. */
  function setTarget(next: Continuation, blocked: string | null = null): void {
    target.value = next;
    targetBlocked.value = blocked;
  }

  function clearInput(): void {
    form.value.input = '';
  }

  /** Fills the form from a recorded request (Re-run); returns the node it continued from, if any. */
  function loadRequest(body: unknown): string | null {
    const loaded = formFromResponsesRequest(body);
    form.value = { ...loaded.form, tools: withSavedReplies(loaded.form.tools, form.value.tools) };
    return loaded.from;
  }

  function setToolEditorErrors(list: string[]): void {
    toolEditorErrors.value = list;
  }

  function setFormatErrors(list: string[]): void {
    formatErrors.value = list;
  }

  return {
    form, target, targetBlocked, reasoningModel, request, instructionsBlocked, violations, blockedReason,
    violationsFor, setTarget, clearInput, loadRequest, setToolEditorErrors, setFormatErrors,
  };
});

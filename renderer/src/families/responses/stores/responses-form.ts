/**
 * The Responses playground's editable form and what the next request continues from (a new
 * chain, a stored response, or a compaction), with what is wrong with the request that would be
 * sent. `blockedReason` disables Send and says why.
 */
import { editorErrors, schemaIssues } from '../../../lib/form-violations';
import { useFormViolations } from '../../../composables/use-form-violations';
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { ResponsesRequestSchema } from '@shared/families/responses/contract';
import { validateResponsesRequest } from '@shared/validate/responses';
import { withSavedReplies } from '@shared/tools/tool-spec';
import { useModelsStore } from '../../../stores/models';
import { useRequestHeadersStore } from '../../../stores/request-headers';
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

  // The extra request headers' problems block Send like the form's own.
  const headers = useRequestHeadersStore();
  const { violations, violationsFor, blockedReason } = useFormViolations(() => {
    const emptyInput = !form.value.input.trim();
    return [
      targetBlocked.value ? [{ field: 'previous_response_id', message: targetBlocked.value }] : [],
      emptyInput ? [{ field: 'input', message: 'write a message to send' }] : [],
      form.value.tools.length ? editorErrors('tools', toolEditorErrors.value) : [],
      editorErrors('text.format', formatErrors.value),
      schemaIssues(ResponsesRequestSchema, request.value),
      // An empty input is already said once, in the user's terms ("write a message").
      validateResponsesRequest(request.value, { reasoningModel: reasoningModel.value }).filter((v) => !(emptyInput && v.field.startsWith('input'))),
      headers.violations('responses'),
    ];
  });

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

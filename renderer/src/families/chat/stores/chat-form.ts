/**
 * The Chat playground's editable form: model, system prompt, messages and parameters, and what
 * is wrong with them. `violations` drives the inline messages and the disabled Send button.
 */
import { editorErrors, schemaIssues } from '../../../lib/form-violations';
import { useFormViolations } from '../../../composables/use-form-violations';
import { useDraft } from '../../../composables/use-draft';
import { overDefaults, savedList, savedString } from '../../../lib/draft-fields';
import { defineStore } from 'pinia';
import { useRequestHeadersStore } from '../../../stores/request-headers';
import { computed, ref } from 'vue';
import { ChatRequestSchema } from '@shared/families/chat/contract';
import { validateChatRequest } from '@shared/validate/chat';
import type { ChatToolCall } from '@shared/wire/chat';
import { withSavedReplies } from '@shared/tools/tool-spec';
import type { ToolReply } from '@shared/tools/replies';
import {
  buildChatRequest,
  defaultParams,
  formFromRequest,
  type ChatParams,
  type EditableRole,
  type FormMessage,
} from '../lib/chat-form';

export const useChatFormStore = defineStore('chat-form', () => {
  let lastId = 0;
  const nextId = (): number => ++lastId;

  const model = ref('');
  const systemPrompt = ref('');
  const messages = ref<FormMessage[]>([{ id: nextId(), role: 'user', content: '' }]);
  const params = ref<ChatParams>(defaultParams());
  /** What the tools editor found wrong (JSON positions, schema checks); set by the view. */
  const toolEditorErrors = ref<string[]>([]);

  const built = computed(() =>
    buildChatRequest({ model: model.value, systemPrompt: systemPrompt.value, messages: messages.value, params: params.value }),
  );
  const request = computed(() => built.value.request);

  // The extra request headers' problems block Send like the form's own.
  const headers = useRequestHeadersStore();
  const { violations, violationsFor, blockedReason } = useFormViolations(() => [
    built.value.violations,
    params.value.tools.length ? editorErrors('tools', toolEditorErrors.value) : [],
    schemaIssues(ChatRequestSchema, request.value),
    validateChatRequest(request.value),
    messages.value.length > 0 && messages.value.every((m) => !m.content.trim()) ? [{ field: 'messages', message: 'write a message to send' }] : [],
    headers.violations('chat'),
  ]);

  function addMessage(role: EditableRole = 'user', content = ''): void {
    messages.value.push({ id: nextId(), role, content });
  }

  function removeMessage(id: number): void {
    messages.value = messages.value.filter((m) => m.id !== id);
  }

  /** Moves a message one place up (-1) or down (+1); out-of-range moves do nothing. */
  function moveMessage(id: number, by: -1 | 1): void {
    const i = messages.value.findIndex((m) => m.id === id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= messages.value.length) return;
    const list = [...messages.value];
    [list[i], list[j]] = [list[j]!, list[i]!];
    messages.value = list;
  }

  function setRole(id: number, role: EditableRole): void {
    const m = messages.value.find((x) => x.id === id);
    if (m) m.role = role;
  }

  /** Fills the form from a recorded request (Open in playground). */
  function loadRequest(body: unknown): void {
    const form = formFromRequest(body, nextId);
    model.value = form.model;
    systemPrompt.value = form.systemPrompt;
    messages.value = form.messages.length ? form.messages : [{ id: nextId(), role: 'user', content: '' }];
    params.value = { ...form.params, tools: withSavedReplies(form.params.tools, params.value.tools) };
  }

  function resetParams(): void {
    // Tools are edited in their own panel; Reset of the parameters leaves them alone.
    const { tools, toolChoice, parallelToolCalls } = params.value;
    params.value = { ...defaultParams(), tools, toolChoice, parallelToolCalls };
  }

  function setToolEditorErrors(list: string[]): void {
    toolEditorErrors.value = list;
  }

  /**
   * Continues the conversation after tool calls: the assistant turn with its calls, then one
   * tool message per reply, in the calls' order. An empty trailing user message is dropped first
   * (it would otherwise sit between the question and the answer).
   */
  function appendToolTurn(assistant: { content: string; toolCalls: ChatToolCall[] }, replies: ToolReply[]): void {
    const last = messages.value.at(-1);
    if (last && last.role === 'user' && !last.content.trim() && messages.value.length > 1) messages.value.pop();
    messages.value.push({
      id: nextId(),
      role: 'assistant',
      content: assistant.content,
      toolCalls: assistant.toolCalls.map((c) => ({ id: c.id, type: c.type || 'function', function: { name: c.function.name, arguments: c.function.arguments } })),
    });
    for (const r of replies) messages.value.push({ id: nextId(), role: 'tool', content: r.output, toolCallId: r.callId });
  }

  /**
   * The draft: the whole form (`params` whole, so a parameter added later is kept too). New keeps
   * the model and the tool set (tools are a saved set of their own), and empties the rest.
   */
  const draft = useDraft(
    'chat',
    () => ({ model: model.value, systemPrompt: systemPrompt.value, messages: messages.value, params: params.value }),
    (saved) => {
      const { tools, toolChoice, parallelToolCalls } = params.value;
      if (!saved) {
        systemPrompt.value = '';
        messages.value = [{ id: nextId(), role: 'user', content: '' }];
        params.value = { ...defaultParams(), tools, toolChoice, parallelToolCalls };
        return;
      }
      model.value = savedString(saved, 'model');
      systemPrompt.value = savedString(saved, 'systemPrompt');
      const list = savedList(saved, 'messages') as FormMessage[] | null;
      messages.value = list ? list.map((m) => ({ ...m, id: nextId() })) : [{ id: nextId(), role: 'user', content: '' }];
      params.value = overDefaults(defaultParams(), saved.params);
    },
  );

  return {
    model, systemPrompt, messages, params, request, violations, blockedReason, toolEditorErrors, draft,
    violationsFor, addMessage, removeMessage, moveMessage, setRole, loadRequest, resetParams, setToolEditorErrors, appendToolTurn,
  };
});

/**
 * The Messages playground's editable form: model, system prompt, turns of content blocks,
 * parameters and tools, and what is wrong with them (shared validator plus the tool editor's
 * findings). `blockedReason` disables Send with the first reason.
 */
import { editorErrors, schemaIssues } from '../../../lib/form-violations';
import { useFormViolations } from '../../../composables/use-form-violations';
import { useDraft } from '../../../composables/use-draft';
import { overDefaults, savedList, savedString } from '../../../lib/draft-fields';
import { defineStore, storeToRefs } from 'pinia';
import { computed, ref } from 'vue';
import { MessagesRequestSchema } from '@shared/families/messages/contract';
import { validateMessagesRequest } from '@shared/validate/messages';
import type { MessagesContentBlock } from '@shared/wire/messages';
import type { ToolReply } from '@shared/tools/replies';
import { withSavedReplies } from '@shared/tools/tool-spec';
import { useModelsStore } from '../../../stores/models';
import { useRequestHeadersStore } from '../../../stores/request-headers';
import { isReasoningModel } from '../../../lib/legacy-reasoning';
import {
  assistantBlocks,
  buildMessagesRequest,
  conversationIsEmpty,
  defaultMessagesParams,
  formFromMessagesRequest,
  type FormBlock,
  type FormTurn,
  type MessagesParams,
  type TurnRole,
} from '../lib/messages-form';

type NewBlock = Exclude<FormBlock['kind'], 'model'>;

export const useMessagesFormStore = defineStore('messages-form', () => {
  let lastId = 0;
  const nextId = (): number => ++lastId;
  const textBlock = (text = ''): FormBlock => ({ id: nextId(), kind: 'text', text });

  const model = ref('');
  const systemMode = ref<'text' | 'blocks'>('text');
  const systemText = ref('');
  const systemBlocks = ref<string[]>(['']);
  const turns = ref<FormTurn[]>([{ id: nextId(), role: 'user', blocks: [textBlock()] }]);
  const params = ref<MessagesParams>(defaultMessagesParams());
  /** What the tools editor found wrong (JSON positions, schema checks); set by the view. */
  const toolEditorErrors = ref<string[]>([]);
  const { rows } = storeToRefs(useModelsStore());

  const reasoning = computed(() => isReasoningModel(model.value, rows.value));
  const built = computed(() =>
    buildMessagesRequest({
      model: model.value,
      systemMode: systemMode.value,
      systemText: systemText.value,
      systemBlocks: systemBlocks.value,
      turns: turns.value,
      params: params.value,
    }),
  );
  const request = computed(() => built.value.request);

  // The extra request headers' problems block Send like the form's own.
  const headers = useRequestHeadersStore();
  const { violations, violationsFor, blockedReason } = useFormViolations(() => [
    conversationIsEmpty(turns.value) ? [{ field: 'messages', message: 'write a message to send' }] : [],
    built.value.violations,
    params.value.tools.length ? editorErrors('tools', toolEditorErrors.value) : [],
    schemaIssues(MessagesRequestSchema, request.value),
    validateMessagesRequest(request.value, { reasoningModel: reasoning.value }),
    headers.violations('messages'),
  ]);

  function addTurn(role?: TurnRole): void {
    const next = role ?? (turns.value.at(-1)?.role === 'user' ? 'assistant' : 'user');
    turns.value.push({ id: nextId(), role: next, blocks: [textBlock()] });
  }

  function removeTurn(id: number): void {
    turns.value = turns.value.filter((t) => t.id !== id);
  }

  function moveTurn(id: number, by: -1 | 1): void {
    const i = turns.value.findIndex((t) => t.id === id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= turns.value.length) return;
    const list = [...turns.value];
    [list[i], list[j]] = [list[j]!, list[i]!];
    turns.value = list;
  }

  function addBlock(turnId: number, kind: NewBlock): void {
    const turn = turns.value.find((t) => t.id === turnId);
    if (!turn) return;
    if (kind === 'text') turn.blocks.push(textBlock());
    else if (kind === 'image') turn.blocks.push({ id: nextId(), kind: 'image', source: 'url', url: '', mediaType: 'image/png', data: '', fileName: '' });
    else turn.blocks.push({ id: nextId(), kind: 'tool_result', toolUseId: '', content: '', isError: false });
  }

  function removeBlock(turnId: number, blockId: number): void {
    const turn = turns.value.find((t) => t.id === turnId);
    if (turn) turn.blocks = turn.blocks.filter((b) => b.id !== blockId);
  }

  /** Drops a trailing empty user turn (it would sit between the question and the answer). */
  function dropEmptyTail(): void {
    const last = turns.value.at(-1);
    if (last && turns.value.length > 1 && last.role === 'user' && conversationIsEmpty([last])) turns.value.pop();
  }

  /** "Add to conversation": the answer as an assistant turn, then an empty user turn to continue. */
  function appendAnswer(content: readonly MessagesContentBlock[]): void {
    const blocks = assistantBlocks(content, nextId);
    if (!blocks.length) return;
    dropEmptyTail();
    turns.value.push({ id: nextId(), role: 'assistant', blocks });
    turns.value.push({ id: nextId(), role: 'user', blocks: [textBlock()] });
  }

  /** The tool loop's step: the assistant turn as it came, then a user turn of tool_result blocks. */
  function appendToolTurn(content: readonly MessagesContentBlock[], replies: readonly ToolReply[]): void {
    dropEmptyTail();
    turns.value.push({ id: nextId(), role: 'assistant', blocks: assistantBlocks(content, nextId) });
    turns.value.push({
      id: nextId(),
      role: 'user',
      blocks: replies.map((r) => ({ id: nextId(), kind: 'tool_result', toolUseId: r.callId, content: r.output, isError: false })),
    });
  }

  function setToolEditorErrors(list: string[]): void {
    toolEditorErrors.value = list;
  }

  /** Fills the form from a recorded request (Open in playground from History). */
  function loadRequest(body: unknown): void {
    const f = formFromMessagesRequest(body, nextId);
    model.value = f.model;
    systemMode.value = f.systemMode;
    systemText.value = f.systemText;
    systemBlocks.value = f.systemBlocks;
    turns.value = f.turns.length ? f.turns : [{ id: nextId(), role: 'user', blocks: [textBlock()] }];
    params.value = { ...f.params, tools: withSavedReplies(f.params.tools, params.value.tools) };
  }

  function resetParams(): void {
    const { tools, toolChoice, parallelToolCalls } = params.value;
    params.value = { ...defaultMessagesParams(), tools, toolChoice, parallelToolCalls };
  }

  /** Fresh ids for turns and blocks a draft brings back (ids are this page's, for list keys). */
  const reIdTurns = (list: Record<string, unknown>[]): FormTurn[] =>
    (list as unknown as FormTurn[]).map((t) => ({ ...t, id: nextId(), blocks: (Array.isArray(t.blocks) ? t.blocks : []).map((b) => ({ ...b, id: nextId() })) }));

  /**
   * The draft: the whole form (`params` whole, so a parameter added later is kept too). New keeps
   * the model and the tool set, and empties the rest.
   */
  const draft = useDraft(
    'messages',
    () => ({ model: model.value, systemMode: systemMode.value, systemText: systemText.value, systemBlocks: systemBlocks.value, turns: turns.value, params: params.value }),
    (saved) => {
      const { tools, toolChoice, parallelToolCalls } = params.value;
      if (!saved) {
        systemMode.value = 'text';
        systemText.value = '';
        systemBlocks.value = [''];
        turns.value = [{ id: nextId(), role: 'user', blocks: [textBlock()] }];
        params.value = { ...defaultMessagesParams(), tools, toolChoice, parallelToolCalls };
        return;
      }
      model.value = savedString(saved, 'model');
      systemMode.value = saved.systemMode === 'blocks' ? 'blocks' : 'text';
      systemText.value = savedString(saved, 'systemText');
      systemBlocks.value = Array.isArray(saved.systemBlocks) && saved.systemBlocks.every((b) => typeof b === 'string') && saved.systemBlocks.length ? saved.systemBlocks : [''];
      const list = savedList(saved, 'turns');
      turns.value = list ? reIdTurns(list) : [{ id: nextId(), role: 'user', blocks: [textBlock()] }];
      params.value = overDefaults(defaultMessagesParams(), saved.params);
    },
  );

  return {
    model, systemMode, systemText, systemBlocks, turns, params, toolEditorErrors, reasoning, request, violations, blockedReason, draft,
    violationsFor, addTurn, removeTurn, moveTurn, addBlock, removeBlock, appendAnswer, appendToolTurn, setToolEditorErrors, loadRequest, resetParams,
  };
});

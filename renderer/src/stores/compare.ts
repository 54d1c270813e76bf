/**
 * The Compare view: one prompt (system + user message, shared parameters) sent to 2–4 columns at
 * once, each with its own model and optional overrides. Each column owns a text run over
 * `chat.send` (see use-text-run.ts); Run all starts them together and waits for all of them.
 */
import { defineStore } from 'pinia';
import { computed, effectScope, ref, type EffectScope } from 'vue';
import type { ChatSendInput } from '@shared/families/chat/contract';
import { LIMITS } from '@shared/limits';
import { validateChatRequest } from '@shared/validate/chat';
import type { ChatRequest } from '@shared/wire/chat';
import { useWorkbench } from '../api';
import { useTextRun, type TextRun } from '../composables/use-text-run';
import { useDraft } from '../composables/use-draft';
import { overDefaults, savedList, savedString } from '../lib/draft-fields';
import { CHAT_RUN_JOBS } from '../families/chat/stores/chat-run';
import { isReasoningModel } from '../lib/legacy-reasoning';
import { useModelsStore } from './models';
import { useNumberEntriesStore } from './number-entries';

export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;

export type ReasoningEffort = (typeof LIMITS.reasoningEffort)[number];

/** Parameters shared by every column; a column's own value (not null) wins. */
export interface CompareParams {
  temperature: number | null;
  maxTokens: number | null;
  reasoningEffort: ReasoningEffort | null;
}

export interface CompareColumn extends CompareParams {
  id: string;
  model: string;
}

function emptyParams(): CompareParams {
  return { temperature: null, maxTokens: null, reasoningEffort: null };
}

/** `cmp-<time>-<random>`: unique per Run all, and sortable by when it ran. */
function newGroupId(): string {
  const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('');
  return `cmp-${Date.now().toString(36)}-${random}`;
}

export const useCompareStore = defineStore('compare', () => {
  const system = ref('');
  const user = ref('');
  const shared = ref<CompareParams>(emptyParams());
  const columns = ref<CompareColumn[]>([]);
  const runs = new Map<string, TextRun<ChatSendInput>>();
  // Each column's run lives in its own scope, stopped when the column is removed.
  const scopes = new Map<string, EffectScope>();
  let nextId = 1;

  function addColumn(model = ''): void {
    if (columns.value.length >= MAX_COLUMNS) return;
    const id = `col-${nextId++}`;
    const scope = effectScope(true);
    const run = scope.run(() => useTextRun<ChatSendInput>((input, onChunk) => useWorkbench().chat.send(input, onChunk), CHAT_RUN_JOBS))!;
    scopes.set(id, scope);
    runs.set(id, run);
    columns.value = [...columns.value, { id, model, ...emptyParams() }];
  }

  /** Removes a column (never below two); a run still going in it is stopped. */
  function removeColumn(id: string): void {
    if (columns.value.length <= MIN_COLUMNS) return;
    void runs.get(id)?.stop();
    runs.delete(id);
    scopes.get(id)?.stop();
    scopes.delete(id);
    columns.value = columns.value.filter((c) => c.id !== id);
  }

  /** The run of a column (exists for every column in `columns`). */
  function runOf(id: string): TextRun<ChatSendInput> {
    const run = runs.get(id);
    if (!run) throw new Error(`no compare column ${id}`);
    return run;
  }

  /** The chat request a column sends: the shared prompt, its model, its overrides over the shared values. */
  function requestFor(column: CompareColumn): ChatRequest {
    const messages: ChatRequest['messages'] = [];
    if (system.value.trim()) messages.push({ role: 'system', content: system.value });
    messages.push({ role: 'user', content: user.value });
    const request: ChatRequest = { model: column.model, messages, stream: true, stream_options: { include_usage: true } };
    const temperature = column.temperature ?? shared.value.temperature;
    const maxTokens = column.maxTokens ?? shared.value.maxTokens;
    const effort = column.reasoningEffort ?? shared.value.reasoningEffort;
    if (temperature !== null) request.temperature = temperature;
    if (maxTokens !== null) request.max_completion_tokens = maxTokens;
    if (effort !== null) request.reasoning_effort = effort;
    return request;
  }

  /** Why a column cannot run (first problem, in words), or null. */
  function problemOf(column: CompareColumn): string | null {
    if (!column.model) return 'choose a model';
    const reasoningModel = isReasoningModel(column.model, useModelsStore().languageModels);
    const violation = validateChatRequest(requestFor(column), { reasoningModel })[0];
    return violation ? `${violation.field}: ${violation.message}` : null;
  }

  const busy = computed(() => columns.value.some((c) => runs.get(c.id)?.busy.value === true));

  /** Why Run all is not possible right now, or null. */
  const entries = useNumberEntriesStore();
  const blockedReason = computed(() => {
    // A number field showing text that is not a number: the columns hold its last valid value.
    const entry = entries.violations[0];
    if (entry) return entry.message;
    if (!user.value.trim()) return 'write a user message';
    for (const [i, column] of columns.value.entries()) {
      const problem = problemOf(column);
      if (problem) return `column ${i + 1}: ${problem}`;
    }
    return null;
  });

  /** Starts every column at once; resolves when all have ended (never rejects). History lists the runs as one comparison. */
  async function runAll(): Promise<void> {
    if (busy.value || blockedReason.value) return;
    const group = { kind: 'compare' as const, id: newGroupId() };
    await Promise.all(
      columns.value.map((c) => runOf(c.id).send({ request: requestFor(c) as unknown as ChatSendInput['request'], group })),
    );
  }

  /** Stops every running column; each keeps its partial text. */
  async function stopAll(): Promise<void> {
    await Promise.all(columns.value.map((c) => runOf(c.id).stop()));
  }

  /** Gives the first columns distinct models from the catalogue where they have none yet. */
  function fillModels(available: string[]): void {
    columns.value = columns.value.map((c, i) => (c.model || available.length === 0 ? c : { ...c, model: available[i % available.length]! }));
  }

  /**
   * Gives the columns these settings, in order (two to four). Existing columns keep their ids,
   * runs and outputs; only a change in count adds or removes columns at the end.
   */
  function setColumns(list: Array<Omit<CompareColumn, 'id'>>): void {
    const wanted = Math.max(MIN_COLUMNS, Math.min(list.length, MAX_COLUMNS));
    while (columns.value.length > wanted) removeColumn(columns.value.at(-1)!.id);
    while (columns.value.length < wanted) addColumn();
    columns.value = columns.value.map((c, i) => (list[i] ? { ...list[i], id: c.id } : c));
  }

  while (columns.value.length < MIN_COLUMNS) addColumn();

  /**
   * The draft: the prompt, the shared parameters and each column's model and overrides. New keeps
   * the columns' models and empties the prompt and every parameter.
   */
  const draft = useDraft(
    'compare',
    () => ({ system: system.value, user: user.value, shared: shared.value, columns: columns.value.map(({ id: _id, ...settings }) => settings) }),
    (saved) => {
      system.value = saved ? savedString(saved, 'system') : '';
      user.value = saved ? savedString(saved, 'user') : '';
      shared.value = overDefaults(emptyParams(), saved?.shared);
      if (!saved) {
        // The columns stay (with their outputs); only their overrides go.
        columns.value = columns.value.map((c) => ({ ...c, ...emptyParams() }));
        return;
      }
      const list = savedList(saved, 'columns');
      if (list) setColumns(list.map((c) => ({ ...overDefaults(emptyParams(), c), model: savedString(c, 'model') })));
    },
  );

  return { system, user, shared, columns, busy, draft, blockedReason, addColumn, removeColumn, runOf, requestFor, problemOf, runAll, stopAll, fillModels };
});

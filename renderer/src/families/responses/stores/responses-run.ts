/**
 * The Responses playground's run and chain: the current text run (over `responses.create`), the
 * tree of the chain it belongs to, the selected node (what is shown, and what Continue continues
 * from), and the chain actions: open a node or a response by id, delete on the service, compact,
 * answer tool calls, list recent chains. Every action leaves errors in `actionError`, never throws.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { ResponseNode, ResponseTree, ResponsesCreateInput } from '@shared/families/responses/contract';
import type { RunRecord } from '@shared/contract/runs';
import type { WorkbenchError } from '@shared/contract/errors';
import { pendingFromResponses, type PendingCall } from '@shared/tools/pending-calls';
import { nextResponsesRequest } from '@shared/tools/next-request';
import type { ToolReply } from '@shared/tools/replies';
import type { ResponseCreateRequest, ResponseOutputItem } from '@shared/wire/responses';
import { useWorkbench } from '../../../api';
import { useTextRun } from '../../../composables/use-text-run';
import { useDraft } from '../../../composables/use-draft';
import { withRequestAsSent } from '../../../composables/request-as-sent';
import { overDefaults } from '../../../lib/draft-fields';
import { toWorkbenchError } from '../../../lib/errors';
import { continueBlockedReason } from '../lib/responses-tree';
import { defaultResponsesForm, type Continuation } from '../lib/responses-form';
import { useResponsesFormStore } from './responses-form';
import { isObject } from '@shared/is-object';
import { useRequestHeadersStore } from '../../../stores/request-headers';

/** The response id a finished run created (from its meta or its recorded output). */
function responseIdOf(record: RunRecord | null, metaId: string | undefined): string | null {
  if (metaId) return metaId;
  const out = record?.output;
  return isObject(out) && typeof out.id === 'string' && out.id ? out.id : null;
}

export const useResponsesRunStore = defineStore('responses-run', () => {
  const run = useTextRun<ResponsesCreateInput>((input, onChunk) => useWorkbench().responses.create(input, onChunk));
  const form = useResponsesFormStore();
  const tree = shallowRef<ResponseTree | null>(null);
  const selectedId = ref<string | null>(null);
  const chains = shallowRef<ResponseNode[]>([]);
  const chainsLoaded = ref(false);
  /** The last chain action that failed (open, delete, compact...); the run's own errors are run.error. */
  const actionError = shallowRef<WorkbenchError | null>(null);
  /** Something an action did that the user should know (e.g. a node not in the local tree). */
  const note = ref<string | null>(null);
  const working = ref(false);
  /** What the call in progress is doing, shown while the service answers. */
  const workingNote = ref<string | null>(null);
  /** Bumped per node open, so a slow earlier open cannot overwrite a newer one. */
  let openGen = 0;

  const selectedNode = computed(() => tree.value?.nodes.find((n) => n.id === selectedId.value) ?? null);
  const pendingCalls = computed<PendingCall[]>(() => {
    const rec = run.record.value;
    if (!rec || rec.endpoint !== 'responses' || rec.status !== 'completed' || !isObject(rec.output)) return [];
    return pendingFromResponses(rec.output.output as ResponseOutputItem[] | undefined);
  });

  function continuationFor(node: ResponseNode): Continuation {
    if (node.kind === 'compaction') return { kind: 'compaction', id: node.id, item: node.compactionItem ?? {} };
    return { kind: 'previous', id: node.id };
  }

  /** Makes a node the one shown and continued from (null: the next Send starts a new chain). */
  function select(id: string | null): void {
    selectedId.value = id;
    const node = selectedNode.value;
    if (!node) form.setTarget({ kind: 'new' });
    else form.setTarget(continuationFor(node), continueBlockedReason(node, Date.now()));
  }

  /** Loads the tree containing a node; false (with actionError set) when the app has no record of it. */
  async function loadTree(id: string): Promise<boolean> {
    try {
      tree.value = await useWorkbench().responses.tree({ id });
      return true;
    } catch (err) {
      actionError.value = toWorkbenchError(err);
      return false;
    }
  }

  let actionController: AbortController | null = null;

  /** Runs a chain action (open, delete, compact) with a status line; Stop (cancelAction) aborts it. */
  async function guarded<T>(work: (signal: AbortSignal) => Promise<T>, doing: string): Promise<T | null> {
    const controller = (actionController = new AbortController());
    working.value = true;
    workingNote.value = doing;
    actionError.value = null;
    note.value = null;
    try {
      return await work(controller.signal);
    } catch (err) {
      const error = toWorkbenchError(err);
      if (error.code === 'cancelled' && controller.signal.aborted) note.value = 'Stopped. Nothing changed in the chain here; the service may still finish what it had started.';
      else actionError.value = error;
      return null;
    } finally {
      if (actionController === controller) actionController = null;
      working.value = false;
      workingNote.value = null;
    }
  }

  /** Stops the chain action under way (the call is cancelled in main too). */
  function cancelAction(): void {
    actionController?.abort();
  }

  /** After a run: the new response joins the tree and becomes the node to continue from. */
  async function afterRun(result: RunRecord | null, from: Continuation): Promise<void> {
    const newId = responseIdOf(result, run.meta.value.responseId);
    if (result && newId && result.status !== 'error') {
      if (await loadTree(newId)) select(newId);
      else note.value = 'The new response is not in the local chain record.';
      if (result.status === 'completed' || result.status === 'incomplete') form.clearInput();
      void loadChains();
      return;
    }
    // A failed continuation (e.g. the previous response was deleted or expired on the service):
    // main records what it learnt on the node; refresh it so Send says why. The input is kept.
    if (from.kind !== 'new' && (await loadTree(from.id))) select(from.id);
  }

  async function post(request: ResponseCreateRequest, from: Continuation): Promise<void> {
    actionError.value = null;
    note.value = null;
    const result = await run.send({ request: request as unknown as ResponsesCreateInput['request'], ...useRequestHeadersStore().sendPart('responses') });
    await afterRun(result, from);
  }

  /** Sends the form: a new chain, or a continuation of the selected node. Resolves when it has ended. */
  async function send(): Promise<void> {
    if (run.busy.value || form.blockedReason) return;
    await post(form.request, form.target);
  }

  /** Answers the pending tool calls: the function_call_output items, chained to the response that asked. */
  async function answerTools(replies: ToolReply[]): Promise<void> {
    const shown = run.record.value;
    const id = responseIdOf(shown, run.meta.value.responseId);
    if (!shown || !id || run.busy.value) return;
    // A node opened from History holds its media as references: an unstored chain sends them again.
    let rec: RunRecord;
    try {
      rec = await withRequestAsSent(shown);
    } catch (err) {
      actionError.value = toWorkbenchError(err);
      return;
    }
    const prev = rec.request.body as ResponseCreateRequest;
    const stored = run.meta.value.stored !== false;
    const output = isObject(rec.output) ? (rec.output.output as ResponseOutputItem[]) : [];
    const next = nextResponsesRequest(prev, id, replies, { stored, output });
    // The service refuses instructions beside previous_response_id; the chain keeps the first ones.
    if (next.previous_response_id) delete next.instructions;
    await post(next, stored ? { kind: 'previous', id } : { kind: 'new' });
  }

  /** Opens a node of the current tree: selects it and shows its recorded run. */
  async function openNode(id: string): Promise<void> {
    const gen = ++openGen;
    select(id);
    const node = selectedNode.value;
    if (!node?.runId || run.busy.value) return;
    await guarded(async () => {
      const record = await useWorkbench().history.get({ id: node.runId! });
      if (gen === openGen) run.show(record);
    }, 'Opening the recorded response…');
  }

  /** Opens the tree containing a node (`/responses?node=…`, a recent chain) at that node. */
  async function loadNode(id: string): Promise<void> {
    actionError.value = null;
    // A later open (or a draft's reopen) started meanwhile wins.
    const gen = ++openGen;
    if ((await loadTree(id)) && gen === openGen) await openNode(id);
  }

  /** A kept draft's chain, reopened at its node, unless another node was opened meanwhile. */
  async function reopen(id: string): Promise<void> {
    const gen = ++openGen;
    const reopened = await useWorkbench().responses.tree({ id }).catch(() => null);
    if (gen !== openGen) return;
    if (!reopened) {
      // The app no longer has that chain (History deleted it): the next Send starts a new one.
      select(null);
      return;
    }
    tree.value = reopened;
    await openNode(id);
  }

  /**
   * GET /v1/responses/{id}: shows it (also one made outside the app) and its tree. When the
   * service has no such response, its own words are the one error (not a "not in the local
   * chains" about the tree that then cannot exist), and false keeps the dialog open to fix the id.
   */
  async function openById(id: string): Promise<boolean> {
    const record = await guarded((signal) => useWorkbench().responses.retrieve({ id: id.trim() }, { signal }), `Opening response ${id.trim()}…`);
    if (!record) return false;
    if (record.error) {
      actionError.value = record.error;
      return false;
    }
    run.show(record);
    if (await loadTree(id.trim())) select(id.trim());
    return true;
  }

  /** DELETE on the service; the node stays in the tree, marked deleted. */
  async function remove(id: string): Promise<void> {
    const done = await guarded((signal) => useWorkbench().responses.remove({ id }, { signal }), `Deleting response ${id} on the service…`);
    if (!done) return;
    await loadTree(id);
    // Whatever the refreshed record says, the service has just confirmed the deletion.
    if (tree.value) tree.value = { ...tree.value, nodes: tree.value.nodes.map((n) => (n.id === id ? { ...n, serverState: 'deleted' } : n)) };
    if (selectedId.value) select(selectedId.value);
  }

  /** Compacts the chain ending at a response; the compaction node is selected to continue from. */
  async function compact(id: string): Promise<void> {
    const node = tree.value?.nodes.find((n) => n.id === id);
    const model = form.form.model || node?.model || '';
    const record = await guarded((signal) => useWorkbench().responses.compact({ model, responseId: id }, { signal }), 'Compacting the chain: the service is summarising it…');
    if (!record) return;
    if (record.error) {
      actionError.value = record.error;
      return;
    }
    const cmpId = isObject(record.output) && typeof record.output.id === 'string' ? record.output.id : null;
    if (cmpId && (await loadTree(cmpId))) {
      actionError.value = null;
      select(cmpId);
    } else {
      await loadTree(id);
      note.value = 'The compaction is not in the local chain record.';
    }
  }

  /** The most recent chains (their roots), for reopening one. */
  async function loadChains(): Promise<void> {
    try {
      chains.value = await useWorkbench().responses.chains({ limit: 20 });
      chainsLoaded.value = true;
    } catch (err) {
      actionError.value = toWorkbenchError(err);
    }
  }

  /**
   * "Open in playground" from History: the form takes the recorded request and the run's own
   * output is the one shown. The node it continued from is selected (so Send makes a sibling of
   * it); a run that started its chain leaves the next Send starting a new one.
   */
  async function openRecorded(record: RunRecord): Promise<void> {
    ++openGen;
    const from = form.loadRequest(record.request.body);
    run.show(record);
    if (from && (await loadTree(from))) select(from);
    else select(null);
  }

  /** The next Send starts a new chain (instructions allowed again). */
  function newChain(): void {
    select(null);
  }

  /**
   * The draft: the form (whole, so a field added later is kept too), what it continues from and
   * the open node, whose chain is reopened. New keeps the model and the tool set, empties the
   * rest, and makes the next Send start a new chain.
   */
  const draft = useDraft(
    'responses',
    () => ({ form: form.form, target: form.target, node: selectedId.value }),
    (saved) => {
      const { model, tools, toolChoice, parallelToolCalls } = form.form;
      if (!saved) {
        form.form = { ...defaultResponsesForm(), model, tools, toolChoice, parallelToolCalls };
        select(null);
        return;
      }
      form.form = overDefaults(defaultResponsesForm(), saved.form);
      const node = typeof saved.node === 'string' && saved.node ? saved.node : null;
      const target = saved.target as Continuation | undefined;
      // Until the chain is back, Send continues from where the draft did.
      form.setTarget(node && target && (target.kind === 'previous' || target.kind === 'compaction') ? target : { kind: 'new' });
      selectedId.value = node;
      if (node) void reopen(node);
    },
  );

  return {
    ...run, draft, tree, selectedId, selectedNode, chains, chainsLoaded, actionError, note, working, workingNote, pendingCalls,
    select, send, answerTools, openNode, loadNode, openById, remove, compact, cancelAction, loadChains, openRecorded, newChain,
  };
});

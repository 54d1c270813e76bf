/**
 * The Responses interface: create (streamed or plain), retrieve, delete and compact, each
 * recorded as a run; and the chain tree the app keeps of the responses it has seen (store:
 * response_nodes), read offline. Every answer that names a response updates its node: created or
 * refreshed, deleted, gone (missing / expired) when the service no longer has it.
 */
import { compactResponses, COMPACT_PATH, createResponse, deleteResponse, responsePath, RESPONSES_PATH, retrieveResponse, streamResponse } from '../../api/responses';
import { ResponsesAssembler } from '../../api/responses-assembler';
import type { ApiError } from '../../api/errors';
import type { ResponseNode, ResponseServerState, ResponseTree } from '../../../shared/families/responses/contract';
import { WorkbenchFailure } from '../../../shared/contract/errors';
import type { Endpoint, RunRecord } from '../../../shared/contract/runs';
import { chatUsageOf, metaOf } from '../../../shared/text-output';
import { validateCompactRequest, validateResponsesRequest } from '../../../shared/validate/responses';
import type { Compaction, ResponseCreateRequest, ResponseObject, ResponseStreamEvent } from '../../../shared/wire/responses';
import { getResponseNode, responseChains, responseLineage, responseTree, setResponseNodeState, upsertResponseNode } from '../../store/response-nodes';
import { getRun } from '../../store/runs';
import { outputPreviewText, requestPreview } from '../../services/chat-text';
import type { ConnectionsService, ResolvedConnection } from '../../services/connections-service';
import { chainInput, chainSegment, droppedMessages } from './response-chain-input';
import { rehydrate, storeRequestMedia } from '../../services/request-media';
import { runTextPost, streamIntoRun, type TextSendInput } from '../../services/text-post';
import { TextRun, type TextRunContext, type TextServiceDeps } from '../../services/text-run';
import { isObject } from '../../../shared/is-object';

export interface ResponsesServiceOptions extends TextServiceDeps {
  connections: ConnectionsService;
}

export interface ResponseRef {
  connectionId?: string;
  id: string;
}

type Obj = Record<string, unknown>;

/** Calls (retrieve, delete, compact) have no stream: nothing to emit, but the caller can cancel. */
function quiet(signal: AbortSignal = new AbortController().signal): TextRunContext {
  return { signal, emit: () => undefined };
}

export class ResponsesService {
  private readonly now: () => number;

  constructor(private readonly options: ResponsesServiceOptions) {
    this.now = options.now ?? Date.now;
  }

  /** POST /v1/responses, streamed when the request says so; the response's node is recorded. */
  async create(input: TextSendInput, ctx: TextRunContext): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const stream = input.request.stream === true;
    const body = { ...input.request, stream } as unknown as ResponseCreateRequest;
    const post = { connection, endpoint: 'responses', path: RESPONSES_PATH, body, headers: input.headers ?? {}, group: input.group, stream, validate: validateResponsesRequest } as const;
    const record = await runTextPost(this.options, ctx, post, async (run, opts) => {
      if (!stream) return run.finishPlain(await createResponse(connection.client, body, opts));
      const assembler = new ResponsesAssembler();
      const outcome = await streamResponse(connection.client, body, streamIntoRun(run, assembler, (event) => emitEvent(run, event)), opts);
      const output = assembler.events > 0 ? assembler.result() : null;
      return run.finishStream(outcome, output, output?.usage ?? null);
    });
    this.noteCreated(connection, body, record);
    return record;
  }

  /** GET /v1/responses/{id}: recorded; adds or refreshes the node (also one made elsewhere). */
  async retrieve(ref: ResponseRef, { signal }: { signal?: AbortSignal } = {}): Promise<RunRecord> {
    // The usage in a stored response belongs to the run that made it.
    const { connection, run } = this.beginById(ref, 'GET', 'responses.retrieve', `Retrieve response ${ref.id}`, false, signal);
    const result = await retrieveResponse(connection.client, ref.id, { signal });
    if (result.ok && isObject(result.value)) {
      run.setModel(String(result.value.model ?? ''));
      this.upsertFromResponse(connection, result.value, run.id, null, '');
    } else if (!result.ok) {
      this.noteGone(connection, ref.id, result.error);
    }
    return run.finishPlain(result, false);
  }

  /** DELETE /v1/responses/{id}: recorded; the node is marked deleted on the server. */
  async remove(ref: ResponseRef, { signal }: { signal?: AbortSignal } = {}): Promise<RunRecord> {
    const { connection, run } = this.beginById(ref, 'DELETE', 'responses.delete', `Delete response ${ref.id}`, undefined, signal);
    const result = await deleteResponse(connection.client, ref.id, { signal });
    if (result.ok) setResponseNodeState(this.options.db, connection.profile.id, ref.id, 'deleted');
    else this.noteGone(connection, ref.id, result.error);
    return run.finishPlain(result, false);
  }

  /** POST /v1/responses/compact over the recorded chain ending at `responseId`; adds a compaction node. */
  async compact(input: { connectionId?: string; model: string; responseId: string }, { signal }: { signal?: AbortSignal } = {}): Promise<RunRecord> {
    const connection = this.options.connections.resolve(input.connectionId);
    const db = this.options.db;
    const lineage = responseLineage(db, connection.profile.id, input.responseId, this.now());
    if (lineage.length === 0) {
      throw new WorkbenchFailure({ code: 'not_found', message: `No recorded chain ends at response ${input.responseId}. Open it by id first, or pick one from the list.` });
    }
    const items = chainInput(chainSegment(lineage), (id) => getRun(db, id));
    // Recorded inputs hold blob references in place of their images: the service needs the bytes.
    const body = { model: input.model, input: this.options.blobs ? await rehydrate(this.options.blobs, items) : items };
    const request = connection.client.describe({ method: 'POST', path: COMPACT_PATH, body });
    const recorded = this.options.blobs ? await storeRequestMedia(this.options.blobs, request) : null;
    const run = TextRun.begin(this.options, {
      connection,
      endpoint: 'responses.compact',
      model: input.model,
      request,
      ...(recorded?.blobs.length ? { recorded } : {}),
      ctx: quiet(signal),
      promptPreview: `Compact the chain ending at ${input.responseId}`,
    });
    const violations = validateCompactRequest(body);
    if (violations.length > 0) return run.reject(violations);
    const result = await compactResponses(connection.client, body as never, { signal });
    const record = run.finishPlain(result, false);
    if (result.ok && isObject(result.value) && typeof result.value.id === 'string') {
      this.addCompaction(connection, result.value, input.responseId, lineage[0], items, record.id);
    }
    return record;
  }

  /** The tree containing a node, from the store (offline). */
  tree(ref: ResponseRef): ResponseTree {
    const connection = this.options.connections.resolve(ref.connectionId);
    const tree = responseTree(this.options.db, connection.profile.id, ref.id, this.now());
    if (!tree) throw new WorkbenchFailure({ code: 'not_found', message: `Response ${ref.id} is not in the local chains. Open it by id to add it.` });
    return tree;
  }

  /** The newest chains' roots, newest first. */
  chains(input: { connectionId?: string; limit: number }): ResponseNode[] {
    const connection = this.options.connections.resolve(input.connectionId);
    return responseChains(this.options.db, connection.profile.id, input.limit, this.now());
  }

  /** Begins the run of a call on one stored response; its model is the one on record, if any. */
  private beginById(ref: ResponseRef, method: 'GET' | 'DELETE', endpoint: Endpoint, promptPreview: string, countsUsage?: boolean, signal?: AbortSignal): { connection: ResolvedConnection; run: TextRun } {
    const connection = this.options.connections.resolve(ref.connectionId);
    const known = getResponseNode(this.options.db, connection.profile.id, ref.id, this.now());
    const request = connection.client.describe({ method, path: responsePath(ref.id) });
    const run = TextRun.begin(this.options, { connection, endpoint, model: known?.model ?? '', request, ctx: quiet(signal), promptPreview, countsUsage });
    return { connection, run };
  }

  private noteCreated(connection: ResolvedConnection, body: ResponseCreateRequest, record: RunRecord): void {
    const output = record.output;
    if (isObject(output) && typeof output.id === 'string' && output.id) {
      const parent = body.previous_response_id ?? compactionIdOf(body.input);
      this.upsertFromResponse(connection, output, record.id, parent, requestPreview('responses', body));
    } else if (record.error?.status === 404 && body.previous_response_id) {
      this.noteGone(connection, body.previous_response_id, { status: 404 } as ApiError);
    }
  }

  private upsertFromResponse(connection: ResolvedConnection, response: Obj, runId: string, parent: string | null, inputPreview: string): void {
    const meta = metaOf('responses', response as never);
    const createdAt = typeof response.created_at === 'number' ? response.created_at * 1000 : this.now();
    upsertResponseNode(this.options.db, {
      id: String(response.id),
      kind: 'response',
      parentId: parent ?? meta.previousResponseId ?? null,
      connectionId: connection.profile.id,
      runId,
      model: String(response.model ?? ''),
      createdAt,
      expiresAt: meta.expiresAt ?? null,
      serverState: meta.stored ? 'stored' : 'not_stored',
      status: meta.serviceStatus || null,
      inputPreview,
      outputPreview: outputPreviewText('responses', response as never),
    });
  }

  /**
   * The service no longer has `id` (404): expired when past its expiry, else missing. A node known
   * to be deleted or never stored keeps that state: it says more than "missing".
   */
  private noteGone(connection: ResolvedConnection, id: string, error: Pick<ApiError, 'status'>): void {
    if (error.status !== 404) return;
    const node = getResponseNode(this.options.db, connection.profile.id, id, this.now());
    if (!node || node.serverState === 'deleted' || node.serverState === 'not_stored') return;
    const state: ResponseServerState = node.expiresAt !== null && this.now() > node.expiresAt ? 'expired' : 'missing';
    setResponseNodeState(this.options.db, connection.profile.id, id, state);
  }

  private addCompaction(connection: ResolvedConnection, compaction: Obj, parentId: string, last: ResponseNode, input: Obj[], runId: string): void {
    const c = compaction as unknown as Compaction;
    const usage = isObject(c.usage) ? c.usage : null;
    const dropped = typeof usage?.dropped_message_count === 'number' ? usage.dropped_message_count : input.length;
    const lastRun = last.runId ? getRun(this.options.db, last.runId) : null;
    const lastUsage = isObject(lastRun?.output) ? (lastRun.output as Obj).usage : null;
    const tokensSaved =
      isObject(lastUsage) && typeof lastUsage.input_tokens === 'number' && typeof lastUsage.output_tokens === 'number' && typeof usage?.output_tokens === 'number'
        ? lastUsage.input_tokens + lastUsage.output_tokens - usage.output_tokens
        : null;
    upsertResponseNode(this.options.db, {
      id: c.id,
      kind: 'compaction',
      parentId,
      connectionId: connection.profile.id,
      runId,
      model: String(c.model ?? ''),
      createdAt: typeof c.created_at === 'number' ? c.created_at * 1000 : this.now(),
      expiresAt: null,
      serverState: 'not_stored',
      status: null,
      inputPreview: `${input.length} items of the chain ending at ${parentId}`,
      outputPreview: `Compacted ${dropped} messages`,
      droppedMessages: droppedMessages(input, dropped),
      droppedMessageCount: dropped,
      tokensSaved,
      compactionItem: Array.isArray(c.output) && isObject(c.output[0]) ? (c.output[0] as unknown as Obj) : undefined,
    });
  }
}

/** A continuation from a compaction names it in its input, not in previous_response_id. */
function compactionIdOf(input: unknown): string | null {
  if (!Array.isArray(input)) return null;
  const item = input.find((i: unknown) => isObject(i) && i.type === 'compaction' && typeof i.id === 'string') as Obj | undefined;
  return item ? (item.id as string) : null;
}

/** What one stream event means to the renderer. Unknown events mean nothing (they are kept raw). */
function emitEvent(run: TextRun, event: ResponseStreamEvent): void {
  const e = event as unknown as Obj;
  switch (e.type) {
    case 'response.created':
    case 'response.in_progress':
      if (isObject(e.response)) run.meta(metaOf('responses', e.response as never));
      break;
    case 'response.reasoning_summary_text.delta':
      if (typeof e.delta === 'string') run.delta({ type: 'delta', choice: 0, reasoning: e.delta });
      break;
    case 'response.output_text.delta':
      if (typeof e.delta === 'string') {
        const logprobs = Array.isArray(e.logprobs) && e.logprobs.length > 0 ? { logprobs: e.logprobs as never } : {};
        run.delta({ type: 'delta', choice: 0, content: e.delta, ...logprobs });
      }
      break;
    case 'response.output_item.done':
      if (isObject(e.item) && e.item.type === 'function_call') {
        const item = e.item;
        const id = typeof item.call_id === 'string' ? item.call_id : String(item.id ?? '');
        run.delta({ type: 'delta', choice: 0, toolCalls: [{ id, type: 'function', function: { name: String(item.name ?? ''), arguments: String(item.arguments ?? '') } }] });
      }
      break;
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      if (isObject(e.response)) finalEvent(run, e.response);
      break;
    default:
      break;
  }
}

function finalEvent(run: TextRun, response: Obj): void {
  const r = response as unknown as ResponseObject;
  const status = r.status;
  const reason = isObject(r.incomplete_details) ? String(r.incomplete_details.reason ?? '') : '';
  const calls = Array.isArray(r.output) && r.output.some((i) => isObject(i) && i.type === 'function_call');
  run.delta({ type: 'delta', choice: 0, finishReason: status === 'incomplete' ? reason || 'incomplete' : calls ? 'tool_calls' : status || null });
  run.meta(metaOf('responses', response as never));
  run.usage(chatUsageOf('responses', r.usage));
}

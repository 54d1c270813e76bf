import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { ResponseNode, ResponseTree } from '../../../shared/families/responses/contract';
import { choicesOf, RESPONSE_RETENTION_MS } from '../../../shared/text-output';
import { recordedEvents, startHarness, useHarness } from './harness';
import { deltaText, mergedMeta, runText } from './text-run-helper';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
const MODEL = 'svc-4';
const DAY = 86_400_000;

describe('ResponsesService against the sandbox', () => {
  const h = useHarness();

  const create = (request: Record<string, unknown>, headers?: Record<string, string>) =>
    runText(h.app.handlers.responses.create, { request: { model: MODEL, ...request }, ...(headers ? { headers } : {}) });
  const idOf = (output: unknown): string => (output as { id: string }).id;

  describe('create()', () => {
    it('streams a response: meta with the id before the text, recorded with events, usage and cost', async () => {
      const { record, chunks } = await create({ input: 'Tell me about otters', stream: true });
      expect(record).toMatchObject({ status: 'completed', endpoint: 'responses', error: null });
      const id = idOf(record.output);
      const firstMeta = chunks.findIndex((c) => c.type === 'meta' && c.meta.responseId === id);
      const firstDelta = chunks.findIndex((c) => c.type === 'delta' && c.content);
      expect(firstMeta).toBeGreaterThan(-1);
      expect(firstMeta).toBeLessThan(firstDelta);
      const created = (record.output as { created_at: number }).created_at;
      expect(mergedMeta(chunks)).toMatchObject({ responseId: id, stored: true, expiresAt: created * 1000 + RESPONSE_RETENTION_MS, serviceStatus: 'completed' });
      expect(deltaText(chunks)).toBe(choicesOf('responses', record.output)[0].content);
      expect(deltaText(chunks).length).toBeGreaterThan(10);
      const events = await recordedEvents(h.app, record.id);
      expect(events.at(-1)?.data).toBe('[DONE]');
      expect(events[0]).toMatchObject({ event: 'response.created' });
      expect(record.usage?.total_tokens).toBeGreaterThan(0);
      expect(record.costTicks).toBeGreaterThan(0);
      expect(record.promptPreview).toBe('Tell me about otters');
      const page = h.app.handlers.history.search({ query: 'otters', endpoint: 'responses', limit: 50 } as never, CTX) as { items: Array<{ id: string }> };
      expect(page.items.map((i) => i.id)).toContain(record.id);
    });

    it('records a violation as invalid_input without sending anything', async () => {
      const { record } = await create({ input: 'hi', previous_response_id: 'r-1', instructions: 'Be terse' });
      expect(record.status).toBe('error');
      expect(record.error?.code).toBe('invalid_input');
      expect(record.response).toBeNull();
    });

    it('keeps the partial text and marks the run incomplete when the stream is dropped', async () => {
      const { record, chunks } = await create({ input: 'Tell me about rivers at length', stream: true }, { 'x-sandbox-fault': 'drop-after=8' });
      expect(record.status).toBe('incomplete');
      expect(record.error?.code).toBe('stream_incomplete');
      expect(choicesOf('responses', record.output)[0].content).toBe(deltaText(chunks));
    });
  });

  describe('compact() cancelled by its caller', () => {
    it('records the compaction as cancelled and adds no compaction node', async () => {
      const { record: first } = await create({ input: 'Tell me about otters' });
      const id = idOf(first.output);
      const controller = new AbortController();
      const compacting = h.app.handlers.responses.compact({ model: MODEL, responseId: id }, { sessionId: 'test', signal: controller.signal });
      controller.abort();
      const record = await compacting;
      expect(record).toMatchObject({ endpoint: 'responses.compact', status: 'cancelled' });
      const tree = h.app.handlers.responses.tree({ id }, CTX) as ResponseTree;
      expect(tree.nodes.map((n) => n.kind)).not.toContain('compaction');
    });
  });

  describe('chains: continue, branch, compact, continue from the compaction', () => {
    it('builds the tree the app shows, with the compaction dropping the recorded chain', async () => {
      const r1 = await create({ input: 'Tell me about herons', stream: true });
      const id1 = idOf(r1.record.output);
      const r2 = await create({ input: 'What do they eat?', previous_response_id: id1 });
      const id2 = idOf(r2.record.output);
      const r3 = await create({ input: 'Where do they nest?', previous_response_id: id2, stream: true });
      const id3 = idOf(r3.record.output);
      const branch = await create({ input: 'What about egrets instead?', previous_response_id: id1 });
      const idB = idOf(branch.record.output);
      expect([r1, r2, r3, branch].map((r) => r.record.status)).toEqual(['completed', 'completed', 'completed', 'completed']);

      const compacted = await h.app.handlers.responses.compact({ model: MODEL, responseId: id3 }, CTX);
      expect(compacted).toMatchObject({ endpoint: 'responses.compact', status: 'completed' });
      const sent = (compacted.request.body as { input: Array<{ role?: string; content?: unknown }> }).input;
      expect(sent.map((i) => i.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
      expect(sent[0].content).toBe('Tell me about herons');
      expect(sent[1].content).toBe(choicesOf('responses', r1.record.output)[0].content);
      const cmpId = idOf(compacted.output);
      expect(cmpId).toMatch(/^cmp_/);

      const tree = h.app.handlers.responses.tree({ id: id3 }, CTX) as ResponseTree;
      const compaction = tree.nodes.find((n) => n.id === cmpId) as ResponseNode;
      expect(compaction).toMatchObject({ kind: 'compaction', parentId: id3, droppedMessageCount: 6, serverState: 'not_stored' });
      expect(compaction.droppedMessages?.[0]).toEqual({ role: 'user', preview: 'Tell me about herons' });
      const lastUsage = (r3.record.output as { usage: { input_tokens: number; output_tokens: number } }).usage;
      const cmpOut = (compacted.output as { usage: { output_tokens: number } }).usage.output_tokens;
      expect(compaction.tokensSaved).toBe(lastUsage.input_tokens + lastUsage.output_tokens - cmpOut);

      // Continue from the compaction: its item as input, no previous_response_id.
      const cont = await create({ input: [compaction.compactionItem, { role: 'user', content: 'Summarise what we said' }], stream: true });
      expect(cont.record.status).toBe('completed');
      const idC = idOf(cont.record.output);

      const full = h.app.handlers.responses.tree({ id: id1 }, CTX) as ResponseTree;
      expect(full.rootId).toBe(id1);
      expect(full.nodes.map((n) => [n.id, n.parentId, n.kind])).toEqual([
        [id1, null, 'response'],
        [id2, id1, 'response'],
        [id3, id2, 'response'],
        [idB, id1, 'response'],
        [cmpId, id3, 'compaction'],
        [idC, cmpId, 'response'],
      ]);
      expect(full.nodes.find((n) => n.id === id2)).toMatchObject({ serverState: 'stored', status: 'completed', runId: r2.record.id, inputPreview: 'What do they eat?' });
      expect(h.app.handlers.responses.tree({ id: idC }, CTX) as ResponseTree).toEqual(full);
      expect((h.app.handlers.responses.chains({ limit: 50 }, CTX) as ResponseNode[]).map((n) => n.id)).toContain(id1);

      // Compacting a chain that starts at a compaction sends the compaction item once, then the turns after it.
      const again = await h.app.handlers.responses.compact({ model: MODEL, responseId: idC }, CTX);
      const againInput = (again.request.body as { input: Array<{ type?: string; role?: string }> }).input;
      expect(againInput.map((i) => i.type ?? i.role)).toEqual(['compaction', 'user', 'assistant']);
    });
  });

  describe('retrieve() and remove()', () => {
    it('deletes a response, marks its node deleted, and a continuation of it records the service message', async () => {
      const made = await create({ input: 'Tell me about owls' });
      const id = idOf(made.record.output);
      const got = await h.app.handlers.responses.retrieve({ id }, CTX);
      expect(got).toMatchObject({ endpoint: 'responses.retrieve', status: 'completed', model: MODEL, promptPreview: `Retrieve response ${id}` });
      expect(idOf(got.output)).toBe(id);
      // The usage belongs to the run that made the response: a GET costs nothing.
      expect(got).toMatchObject({ usage: null, costTicks: null });

      const removed = await h.app.handlers.responses.remove({ id }, CTX);
      expect(removed).toMatchObject({ endpoint: 'responses.delete', status: 'completed', output: { id, deleted: true } });
      expect((h.app.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0]).toMatchObject({ id, serverState: 'deleted' });

      const cont = await create({ input: 'And their eyes?', previous_response_id: id, stream: true });
      expect(cont.record.status).toBe('error');
      expect(cont.record.error).toMatchObject({ code: 'api_error', status: 404, message: expect.stringContaining('was deleted') });
      expect(cont.record.error?.requestId).toBeTruthy();
      const gone = await h.app.handlers.responses.retrieve({ id }, CTX);
      expect(gone.status).toBe('error');
      expect((h.app.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0].serverState).toBe('deleted');
    });

    it('adds a response opened by id to its chain, and records an unknown previous id with the service message', async () => {
      const stored = await create({ input: 'Tell me about kites' });
      const id = idOf(stored.record.output);
      const unknown = await create({ input: 'x', previous_response_id: 'no-such-response' });
      expect(unknown.record.error).toMatchObject({ status: 404, message: expect.stringContaining('does not exist') });

      const child = await create({ input: 'More about kites', previous_response_id: id });
      const childId = idOf(child.record.output);
      const opened = await h.app.handlers.responses.retrieve({ id: childId }, CTX);
      expect(opened.status).toBe('completed');
      expect((h.app.handlers.responses.tree({ id: childId }, CTX) as ResponseTree).nodes.map((n) => n.id)).toEqual([id, childId]);
      expect(() => (h.app.handlers.responses.tree({ id: 'never-seen' }, CTX) as ResponseTree)).toThrow(/not in the local chains/);
    });

    it('keeps a store: false response as not stored when the service cannot retrieve it', async () => {
      const made = await create({ input: 'Tell me about terns', store: false });
      const id = idOf(made.record.output);
      expect(mergedMeta(made.chunks)).toMatchObject({ responseId: id, stored: false, expiresAt: null });
      const got = await h.app.handlers.responses.retrieve({ id }, CTX);
      expect(got.error).toMatchObject({ status: 404, message: expect.stringContaining('store: false') });
      expect((h.app.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0].serverState).toBe('not_stored');
    });
  });

  describe('create() cancelled', () => {
    it('ends as cancelled with the partial text when the caller stops', async () => {
      const slow = await startHarness({ tokenDelayMs: 5 });
      try {
        const { record, chunks } = await runText(
          slow.app.handlers.responses.create,
          { request: { model: MODEL, input: 'Write a long essay about mountains', max_output_tokens: 4000, stream: true } },
          { abortAfterDeltas: 3 },
        );
        expect(record.status).toBe('cancelled');
        expect(record.error).toBeNull();
        expect(deltaText(chunks).length).toBeGreaterThan(0);
        expect(choicesOf('responses', record.output)[0].content.length).toBeGreaterThan(0);
        expect(record.usage).toBeNull();
      } finally {
        await slow.close();
      }
    });
  });
});

async function appAt(dataDir: string, sandboxNow?: () => number): Promise<App> {
  return createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: () => undefined,
    version: 'test',
    sandboxTokenDelayMs: 0,
    sandboxNow,
  });
}

describe('ResponsesService after a restart whose service lost its responses', () => {
  it('keeps the chain offline and marks a node missing once the service says it has no such response', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wb-int-'));
    try {
      const before = await appAt(dataDir);
      const { record } = await runText(before.handlers.responses.create, { request: { model: MODEL, input: 'Tell me about cranes' } });
      const id = (record.output as { id: string }).id;
      await before.dispose();
      // The built-in sandbox keeps stored responses across restarts; remove them to play a
      // service that lost them meanwhile.
      rmSync(join(dataDir, 'sandbox', 'responses.json'));

      const after = await appAt(dataDir);
      try {
        expect((after.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0]).toMatchObject({ id, serverState: 'stored', inputPreview: 'Tell me about cranes' });
        const got = await after.handlers.responses.retrieve({ id }, CTX);
        expect(got.error).toMatchObject({ code: 'api_error', status: 404 });
        expect((after.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0].serverState).toBe('missing');
      } finally {
        await after.dispose();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('ResponsesService with a sandbox clock 31 days behind', () => {
  let app: App;
  let dataDir: string;
  let offset = -31 * DAY;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-int-'));
    app = await appAt(dataDir, () => Date.now() + offset);
  });
  afterAll(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a response past its 30 days as expired offline, then records the service saying so', async () => {
    const { record } = await runText(app.handlers.responses.create, { request: { model: MODEL, input: 'Remember the password is heron' } });
    const id = (record.output as { id: string }).id;
    expect((app.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0]).toMatchObject({ id, serverState: 'expired' });
    expect((app.handlers.responses.chains({ limit: 10 }, CTX) as ResponseNode[])[0]).toMatchObject({ id, serverState: 'expired' });

    offset = 0;
    const cont = await runText(app.handlers.responses.create, { request: { model: MODEL, input: 'What was it?', previous_response_id: id } });
    expect(cont.record.error).toMatchObject({ status: 404, message: expect.stringContaining('expired') });
    const got = await app.handlers.responses.retrieve({ id }, CTX);
    expect(got.error?.status).toBe(404);
    expect((app.handlers.responses.tree({ id }, CTX) as ResponseTree).nodes[0].serverState).toBe('expired');
  });
});

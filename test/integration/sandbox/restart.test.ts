/**
 * The built-in sandbox survives an app restart like a real service would: a deferred chat under
 * way when the app is disposed completes after the next launch (its request id is still known),
 * an uploaded file is still listed and downloads the same bytes, a stored response can still be
 * continued, compaction items still verify, and the sandbox key is the same.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import type { StreamContext } from '../../../main/host/handlers';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { ChatStreamChunk } from '../../../shared/families/chat/contract';
import type { JobSummary } from '../../../shared/contract/jobs';
import type { RunRecord } from '../../../shared/contract/runs';
import type { ChatCompletion } from '../../../shared/wire/chat';
import { choicesOf } from '../../../shared/text-output';
import { runText } from '../services/text-run-helper';

const CTX = { sessionId: 'test', signal: new AbortController().signal };
/** Long enough that the first app is gone well before the completion is ready. */
const DEFERRED_DELAY_MS = 2500;

describe('the built-in sandbox keeps its state across app restarts', () => {
  let dataDir: string;
  const logs: string[] = [];
  const apps: App[] = [];
  const savedDelay = process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS;

  const launch = async (): Promise<App> => {
    const app = await createApp({
      dataDir,
      shell: 'browser',
      keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
      emit: () => undefined,
      log: (line) => logs.push(line),
      version: 'test',
      sandboxTokenDelayMs: 0,
      deferredPollMs: 100,
    });
    apps.push(app);
    return app;
  };
  const sandboxUrl = async (app: App): Promise<string> => {
    const state = await app.handlers.connections.list(undefined, CTX);
    return state.profiles.find((p) => p.kind === 'sandbox')!.baseUrl;
  };
  const keyFile = (): string => readFileSync(join(dataDir, 'sandbox', 'key'), 'utf8').trim();

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'wb-sb-restart-'));
    process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS = String(DEFERRED_DELAY_MS);
  });
  afterAll(async () => {
    for (const app of apps) await app.dispose().catch(() => undefined);
    if (savedDelay === undefined) delete process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS;
    else process.env.WORKBENCH_SANDBOX_DEFERRED_DELAY_MS = savedDelay;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes a deferred chat, keeps a file and a stored response, with the same key', async () => {
    // First launch: a file, a stored response, and a deferred chat left pending.
    const first = await launch();
    const key = keyFile();
    expect(key).toMatch(/^sk-sandbox-/);
    expect(statSync(join(dataDir, 'sandbox', 'key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'sandbox')).mode & 0o777).toBe(0o700);
    const url1 = await sandboxUrl(first);
    const auth = { authorization: `Bearer ${key}` };

    const bytes = randomBytes(200_000);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'data.bin');
    const upload = await fetch(`${url1}/v1/files`, { method: 'POST', headers: auth, body: form });
    expect(upload.status).toBe(200);
    const fileId = ((await upload.json()) as { id: string }).id;

    const turn1 = await runText(first.handlers.responses.create, { request: { model: 'svc-4', input: 'Remember the word heliotrope' } });
    expect(turn1.record.status).toBe('completed');
    const responseId = (turn1.record.output as { id: string }).id;

    const compacted = await fetch(`${url1}/v1/responses/compact`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-4', input: [{ role: 'user', content: 'Remember the word marigold' }] }),
    });
    expect(compacted.status).toBe(200);
    const compactionItem = ((await compacted.json()) as { output: unknown[] }).output[0];

    const controller = new AbortController();
    const chunks: ChatStreamChunk[] = [];
    const window: StreamContext<ChatStreamChunk> = { sessionId: 'w', streamId: 's', signal: controller.signal, emit: (c) => chunks.push(c) };
    const sent = first.handlers.chat.send({ request: { model: 'svc-4', messages: [{ role: 'user', content: 'Say restarted' }], deferred: true } }, window);
    await expect.poll(() => chunks.some((c) => c.type === 'deferred')).toBe(true);
    const { runId } = chunks[0] as Extract<ChatStreamChunk, { type: 'started' }>;
    controller.abort();
    await sent.catch(() => undefined);
    const jobs = (await first.handlers.jobs.list({ limit: 10 }, CTX)) as JobSummary[];
    expect(jobs.find((j) => j.runId === runId)).toMatchObject({ state: 'running', progress: { stage: 'pending' } });
    const requestId = ((await first.handlers.history.get({ id: runId }, CTX)) as RunRecord).deferredRequestId;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await first.dispose();

    // Second launch on the same data folder.
    const second = await launch();
    expect(keyFile()).toBe(key);
    // The same address: the first launch's port was remembered (the first sandbox is closed, so
    // this is the new one answering), and URLs handed out before the restart keep working.
    const url2 = await sandboxUrl(second);
    expect(url2).toBe(url1);

    await expect
      .poll(async () => ((await second.handlers.history.get({ id: runId }, CTX)) as RunRecord).status, { timeout: DEFERRED_DELAY_MS + 8000, interval: 100 })
      .toBe('completed');
    const run = (await second.handlers.history.get({ id: runId }, CTX)) as RunRecord;
    expect(run.deferredRequestId).toBe(requestId);
    expect((run.output as ChatCompletion).choices[0].message.content).toBe('restarted');
    expect(logs.filter((l) => l.includes(`deferred completion ${requestId} created`))).toHaveLength(1);

    // The old key works against the new sandbox, and the file is there with the same bytes.
    const listed = (await (await fetch(`${url2}/v1/files`, { headers: auth })).json()) as { data: Array<{ id: string; filename: string; bytes: number }> };
    expect(listed.data).toEqual([expect.objectContaining({ id: fileId, filename: 'data.bin', bytes: bytes.length })]);
    const content = await fetch(`${url2}/v1/files/${fileId}/content`, { headers: auth });
    expect(content.status).toBe(200);
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);

    // The stored response continues: the model sees the first turn.
    const turn2 = await runText(second.handlers.responses.create, { request: { model: 'svc-4', input: 'What did I say earlier?', previous_response_id: responseId } });
    expect(turn2.record.status).toBe('completed');
    expect(choicesOf('responses', turn2.record.output)[0].content).toContain('heliotrope');

    // A compaction item made before the restart still verifies (the signing secret is kept).
    const fromCompaction = await fetch(`${url2}/v1/responses`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-4', input: [compactionItem, { role: 'user', content: 'What did I say earlier?' }] }),
    });
    expect(fromCompaction.status).toBe(200);
    expect(JSON.stringify(await fromCompaction.json())).toContain('marigold');
    expect(logs.some((l) => l.includes('could not be read'))).toBe(false);
  }, 30_000);

  it('gives the built-in sandbox the same key on every launch, and its connection works with it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'wb-sb-key-'));
    try {
      const keys: string[] = [];
      for (let launchNo = 0; launchNo < 2; launchNo++) {
        const app = await createApp({ dataDir: other, shell: 'browser', keyStore: createFileKeyStore(join(other, 'keys.json')), emit: () => undefined, log: () => undefined, version: 'test' });
        try {
          const state = await app.handlers.connections.list(undefined, CTX);
          const sandbox = state.profiles.find((p) => p.kind === 'sandbox')!;
          expect(await app.handlers.connections.test({ id: sandbox.id }, CTX)).toMatchObject({ ok: true });
          keys.push(readFileSync(join(other, 'sandbox', 'key'), 'utf8').trim());
          // Only that key opens the sandbox: the connection cannot be using another one.
          const res = await fetch(`${sandbox.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${keys[launchNo]}` } });
          expect(res.status).toBe(200);
        } finally {
          await app.dispose();
        }
      }
      expect(keys[1]).toBe(keys[0]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

import type { ChatCompletion } from '../../../shared/wire/chat';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxServer } from '../../../main/sandbox';
import { ConnectionsService } from '../../../main/services/connections-service';
import { DeferredResumer } from '../../../main/services/deferred-resume';
import { closeDatabase, openDatabase, type Db } from '../../../main/store/db';
import { createMemoryKeyStore } from '../../../main/store/key-store';
import { getRun, insertRun } from '../../../main/store/runs';

describe('DeferredResumer', () => {
  let sandbox: SandboxServer;
  let db: Db;
  let connections: ConnectionsService;
  let resumer: DeferredResumer;

  afterEach(async () => {
    await resumer?.dispose();
    await connections?.dispose();
    closeDatabase(db);
    await sandbox?.close();
  });

  it('finishes a deferred run that was still pending when the app last stopped', async () => {
    sandbox = await startSandbox({ tokenDelayMs: 0, deferredDelayMs: 300 });
    const key = sandbox.keys[0];
    // What a previous session did: asked for a deferred completion and recorded it as pending.
    const created = await fetch(`${sandbox.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-4', messages: [{ role: 'user', content: 'Say resumed' }], deferred: true }),
    });
    const { request_id } = (await created.json()) as { request_id: string };
    db = openDatabase(':memory:');
    insertRun(db, {
      id: 'run-before-restart',
      createdAt: Date.now(),
      endpoint: 'chat.completions',
      model: 'svc-4',
      connectionId: 'sandbox',
      connectionName: 'Sandbox',
      isSandbox: true,
      request: { method: 'POST', url: `${sandbox.url}/v1/chat/completions`, headers: {}, body: {} },
      promptText: 'Say resumed',
      status: 'pending',
      deferredRequestId: request_id,
    });

    connections = new ConnectionsService({ db, keyStore: createMemoryKeyStore(), sandbox: { url: sandbox.url, key }, emit: () => {} });
    resumer = new DeferredResumer(db, connections, () => {});
    expect(resumer.resumeAll()).toBe(1);
    await expect.poll(() => getRun(db, 'run-before-restart')?.status, { timeout: 10_000 }).toBe('completed');
    expect((getRun(db, 'run-before-restart')?.output as ChatCompletion | null)?.choices[0].message.content).toBe('resumed');
  });
});

/**
 * A run the app does not live to finish (security and robustness defect 10 of issue 8): the
 * database files are copied while a stream is still open, which is what a crash leaves on disk,
 * and the copy is opened as the next start would. The run is marked incomplete and its inspector
 * still has the response's status and headers and the SSE events that had arrived.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import type { StreamContext } from '../../../main/host/handlers';
import { closeDatabase, openDatabase } from '../../../main/store/db';
import { createFileKeyStore } from '../../../main/store/key-file';
import { readRunEvents } from '../../../main/store/run-events';
import { getRun, markInterruptedRuns } from '../../../main/store/runs';
import type { TextStreamChunk } from '../../../shared/contract/text';
import { startEchoService, type EchoService } from './echo-service';

const CTX = { sessionId: 'test', signal: new AbortController().signal };

const FAMILIES = [
  { name: 'chat', send: (app: App) => app.handlers.chat.send, request: { model: 'echo-1', messages: [{ role: 'user', content: 'hi' }], stream: true } },
  { name: 'messages', send: (app: App) => app.handlers.messages.send, request: { model: 'echo-1', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }], stream: true } },
  { name: 'responses', send: (app: App) => app.handlers.responses.create, request: { model: 'echo-1', input: 'hi', stream: true } },
  { name: 'completions', send: (app: App) => app.handlers.completions.send, request: { model: 'echo-1', prompt: 'hi', max_tokens: 20, stream: true } },
] as const;

async function until<T>(what: string, probe: () => T | null | undefined | Promise<T | null | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a run interrupted by a crash', () => {
  let service: EchoService;
  let dataDir: string;
  let app: App;
  let connectionId: string;

  beforeAll(async () => {
    service = await startEchoService();
    dataDir = mkdtempSync(join(tmpdir(), 'wb-crash-'));
    app = await createApp({ dataDir, shell: 'browser', keyStore: createFileKeyStore(join(dataDir, 'keys.json')), emit: () => undefined, log: () => undefined, version: 'test' });
    connectionId = (await app.handlers.connections.save({ name: 'Echo', baseUrl: service.baseUrl, apiKey: 'sk-crash-test-key-0123' }, CTX)).id;
  });

  afterAll(async () => {
    await app?.dispose();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const family of FAMILIES) {
    it(`${family.name}: keeps the response headers and the events that had arrived`, async () => {
      const controller = new AbortController();
      let runId: string | null = null;
      const ctx: StreamContext<TextStreamChunk> = {
        sessionId: 'test',
        streamId: `crash-${family.name}`,
        signal: controller.signal,
        emit: (chunk) => {
          if (chunk.type === 'started') runId = chunk.runId;
        },
      };
      const running = family.send(app)({ connectionId, request: family.request, headers: { 'x-echo-mode': 'hang' } } as never, ctx as never);
      const crashDir = mkdtempSync(join(tmpdir(), 'wb-crash-image-'));
      try {
        const id = await until('the run to start', () => runId);
        // The service has sent three frames and gone quiet: wait until they are on disk.
        await until('the events on disk', async () => (await app.handlers.history.get({ id }, CTX)).eventCount >= 3);

        for (const suffix of ['', '-wal']) {
          const from = join(dataDir, `workbench.db${suffix}`);
          if (existsSync(from)) copyFileSync(from, join(crashDir, `workbench.db${suffix}`));
        }
        controller.abort();
        await running;

        const db = openDatabase(join(crashDir, 'workbench.db'));
        try {
          expect(markInterruptedRuns(db, Date.now())).toBe(1);
          const run = getRun(db, id)!;
          expect(run.status).toBe('incomplete');
          expect(run.response).toMatchObject({ status: 200, headers: { 'x-request-id': 'req-echo-1', 'content-type': 'text/event-stream' } });
          const events = readRunEvents(db, id)!;
          expect(events.total).toBe(3);
          expect(events.events.map((e) => e.data).join('\n')).toContain('Partial answer');
        } finally {
          closeDatabase(db);
        }
      } finally {
        controller.abort();
        await running.catch(() => undefined);
        rmSync(crashDir, { recursive: true, force: true });
      }
    });
  }
});

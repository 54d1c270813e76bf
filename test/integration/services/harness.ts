/**
 * Builds the real services (store in a temp folder, API client, embedded sandbox) the way
 * main/app.ts does, for integration tests. The sandbox streams without pacing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createApp, type App, type AppOptions } from '../../../main/app';
import type { ChatSendInput, ChatStreamChunk } from '../../../shared/families/chat/contract';
import type { CapturedEvent, RunRecord } from '../../../shared/contract/runs';
import { createFileKeyStore } from '../../../main/store/key-file';
import { runText } from './text-run-helper';

export interface Harness {
  app: App;
  dataDir: string;
  /** Everything main and the embedded sandbox logged. */
  logs: string[];
  events: Array<{ channel: string; payload: unknown }>;
  /** Runs chat.send like the host would, collecting chunks; `abortAfter` cancels after that many deltas. */
  send(input: ChatSendInput, options?: { abortAfterDeltas?: number }): Promise<{ record: RunRecord; chunks: ChatStreamChunk[] }>;
  close(): Promise<void>;
}

/**
 * A harness for a whole test file: started before its tests and closed after them. The object is
 * filled in by the beforeAll, so use it only inside tests and hooks.
 */
export function useHarness(options: { tokenDelayMs?: number } = {}): Harness {
  const h = {} as Harness;
  beforeAll(async () => {
    Object.assign(h, await startHarness(options));
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

export async function startHarness(options: { tokenDelayMs?: number; mediaPlane?: AppOptions['mediaPlane'] } = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wb-int-'));
  const events: Harness['events'] = [];
  const logs: string[] = [];
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: (channel, payload) => events.push({ channel, payload }),
    log: (line) => logs.push(line),
    version: 'test',
    sandboxTokenDelayMs: options.tokenDelayMs ?? 0,
    ...(options.mediaPlane ? { mediaPlane: options.mediaPlane } : {}),
  });
  return {
    app,
    dataDir,
    logs,
    events,
    send: (input, sendOptions = {}) => runText(app.handlers.chat.send, input, sendOptions),
    async close() {
      await app.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every raw SSE event run `id` recorded, read back the way the inspector asks for them. */
export async function recordedEvents(app: App, id: string): Promise<CapturedEvent[]> {
  const page = await app.handlers.history.events({ id, offset: 0, limit: 5_000 }, { sessionId: 'test', signal: new AbortController().signal });
  return page.events;
}

/** The assistant text of choice 0 as the renderer would have assembled it from deltas. */
export function streamedText(chunks: ChatStreamChunk[], choice = 0): string {
  return chunks
    .filter((c): c is Extract<ChatStreamChunk, { type: 'delta' }> => c.type === 'delta' && c.choice === choice)
    .map((c) => c.content ?? '')
    .join('');
}

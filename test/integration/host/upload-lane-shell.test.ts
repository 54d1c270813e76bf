/**
 * The bytes lane exists only where a server takes its posts (browser mode's loopback server): an
 * upload that asks for one in Electron is refused at once, saying why, instead of handing out a
 * ticket nobody can post to and waiting until the stall timer gives up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';

let app: App | undefined;
let dataDir = '';

afterEach(async () => {
  await app?.dispose();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(shell: 'electron' | 'browser') {
  dataDir = mkdtempSync(join(tmpdir(), 'wb-lane-shell-'));
  app = await createApp({ dataDir, shell, keyStore: createFileKeyStore(join(dataDir, 'keys.json')), emit: () => undefined, log: () => undefined, version: 'lane-test' });
  const tickets: string[] = [];
  const controller = new AbortController();
  // A session that sends nothing: the page has not started posting.
  const messages: AsyncIterable<unknown> = {
    [Symbol.asyncIterator]: () => ({ next: () => new Promise((resolve) => controller.signal.addEventListener('abort', () => resolve({ done: true, value: undefined }))) }),
  };
  const ctx = { messages, signal: controller.signal, emit: async (chunk: { lane: string }) => void tickets.push(chunk.lane) };
  const result = app.handlers.userFiles.upload({ name: 'clip.wav', type: 'audio/wav', size: 10, lane: true }, ctx as never) as Promise<unknown>;
  const outcome = await Promise.race([result.then(() => 'staged', (err: unknown) => err), new Promise((resolve) => setTimeout(() => resolve('waiting'), 200))]);
  controller.abort();
  await result.catch(() => {});
  return { outcome, tickets, open: app.uploadLanes.size };
}

describe('userFiles.upload with lane: true', () => {
  it('is refused in Electron, with no ticket given and no lane left open', async () => {
    const { outcome, tickets, open } = await upload('electron');
    expect(outcome).toMatchObject({ error: { code: 'unsupported', message: '"clip.wav" asked for the upload lane, which only browser mode has; here the bytes go in the upload\'s own messages.' } });
    expect(tickets).toEqual([]);
    expect(open).toBe(0);
  });

  it('gives browser mode a ticket and waits for its chunks', async () => {
    const { outcome, tickets } = await upload('browser');
    expect(outcome).toBe('waiting');
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

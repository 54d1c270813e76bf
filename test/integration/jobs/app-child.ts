/**
 * A whole app (main's services, as both shells build them) in a child process, for the
 * kill-and-restart test: `node --import tsx app-child.ts <dataDir> start <baseUrl> <key>` saves a
 * connection to that service, makes it active and sends a deferred chat; `... resume` only opens
 * the app, which resumes what the last process left. SIGTERM shuts it down cleanly; the test's
 * SIGKILL does not let it.
 */
import { join } from 'node:path';
import { createApp } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';

export const CHILD_PROMPT = 'Say survived';

async function main(): Promise<void> {
  const [dataDir, mode, baseUrl, key] = process.argv.slice(2);
  const app = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: (line) => process.stderr.write(`${line}\n`),
    version: 'test',
    deferredPollMs: 100,
  });
  process.on('SIGTERM', () => {
    void app.dispose().then(() => process.exit(0));
  });
  if (mode === 'start') {
    const ctx = { sessionId: 'child' };
    const profile = await app.handlers.connections.save({ name: 'Standalone sandbox', baseUrl, apiKey: key }, ctx);
    await app.handlers.connections.select({ id: profile.id }, ctx);
    const window = { ...ctx, streamId: 'stream-0001', signal: new AbortController().signal, emit: () => undefined };
    void app.handlers.chat.send({ request: { model: 'svc-4', messages: [{ role: 'user', content: CHILD_PROMPT }], deferred: true } }, window).catch(() => undefined);
  }
  process.stdout.write(`ready ${mode}\n`);
  // The app's sockets and timers keep the process alive until the test ends it.
}

main().catch((error: unknown) => {
  process.stderr.write(`app-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

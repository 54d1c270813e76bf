/**
 * A whole app in a child process for the kill test: `node --import tsx video-app-child.ts
 * <dataDir> start <baseUrl> <key>` saves a connection to that service, selects it and creates a
 * video job; `... resume` only opens the app, which resumes what the last process left. SIGTERM
 * shuts it down cleanly; the test's SIGKILL does not let it.
 */
import { join } from 'node:path';
import { createApp } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';

async function main(): Promise<void> {
  const [dataDir, mode, baseUrl, key] = process.argv.slice(2);
  const app = await createApp({
    dataDir: dataDir!,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir!, 'keys.json')),
    emit: () => undefined,
    log: (line) => process.stderr.write(`${line}\n`),
    version: 'test',
    videoPollMs: { first: 50, max: 100 },
  });
  process.on('SIGTERM', () => {
    void app.dispose().then(() => process.exit(0));
  });
  if (mode === 'start') {
    const ctx = { sessionId: 'child', signal: new AbortController().signal };
    const profile = await app.handlers.connections.save({ name: 'Video service', baseUrl: baseUrl!, apiKey: key! }, ctx);
    await app.handlers.connections.select({ id: profile.id }, ctx);
    await app.handlers.videos.create({ mode: 'generate', model: 'svc-video-1', prompt: 'survive a kill', duration: 2, resolution: '480p' }, ctx);
  }
  process.stdout.write(`ready ${mode}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`video-app-child failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

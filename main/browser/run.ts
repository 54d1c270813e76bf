/**
 * Browser mode's body, started by index.ts (`node out/main/browser.js [--port N] [--data-dir DIR] [--sandbox-port N] [--open]`): the same
 * app as Electron, served to a local browser tab. Prints exactly one line to stdout (the address
 * with its token); every diagnostic goes to stderr and to `<dataDir>/logs/workbench.log`. Runs until SIGINT/SIGTERM, then shuts down
 * cleanly (server, streams, app and database) and exits 0.
 */
import { join } from 'node:path';
import { createApp, type App } from '../app';
import { contract } from '../../shared/contract/index';
import { appPaths, readVersion } from '../host/app-paths';
import { wsMaskActive } from '../host/ws-mask';
import { startBrowserServer, type BrowserServer } from '../host/browser-server';
import { resolveDataDir } from '../host/data-dir';
import { createHost, type Host } from '../host/host';
import { createLogger } from '../host/log-file';
import { startBlockMainHook } from '../media/block-main';
import { mediaEntryFor } from '../media/entry-path';
import { forkLauncher } from '../media/fork-launcher';
import { MediaPlane } from '../media/media-plane';
import { createFileKeyStore } from '../store/key-file';
import { parseBrowserArgs } from './args';
import { openInBrowser } from './open-browser';

/** Until the data folder (and so the log file) is known, diagnostics go to stderr alone. */
let log = (line: string): void => {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
};

async function main(entryUrl: string): Promise<void> {
  let args;
  try {
    args = parseBrowserArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const paths = appPaths(entryUrl);
  const dataDir = resolveDataDir(args.dataDir);
  const logger = createLogger({ dir: join(dataDir, 'logs'), stderr: true });
  log = logger.line;
  void wsMaskActive().then((active) => active || log('[ws] ws unmasks frames byte by byte here (host/ws-mask.ts was not taken): page uploads will be slow'));
  let host: Host | null = null;
  let server: BrowserServer | null = null;
  // Media frames run in a child process with its own loopback WebSocket for the page (main/media).
  const mediaPlane = new MediaPlane({
    launch: forkLauncher({ ...mediaEntryFor(entryUrl), log }),
    log,
    transport: { kind: 'websocket', origins: () => (server ? [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`] : []) },
  });
  // Started now, beside the app: the page's CSP must name its frame port.
  const mediaStarted = mediaPlane.start();
  const app: App = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: (channel, payload) => host?.emit(channel, payload),
    log,
    addSecret: logger.addSecret,
    version: readVersion(paths.packageJson),
    logPath: logger.path,
    sandboxPort: args.sandboxPort,
    mediaPlane,
  });
  host = createHost({ contract, handlers: app.handlers, log, logPath: logger.path });
  const media = await mediaStarted;
  if (!media.ok) log(`[media] ${media.error.message}`);
  const mediaPort = mediaPlane.frameServerPort;
  const connectSources = mediaPort ? [`ws://127.0.0.1:${mediaPort}`, `ws://localhost:${mediaPort}`] : [];
  try {
    server = await startBrowserServer({ host, staticDir: paths.rendererDir, port: args.port, log, downloads: app.downloads, uploadLanes: app.uploadLanes, media: app.media, connectSources });
  } catch (err) {
    log(`Could not start the server: ${err instanceof Error ? err.message : String(err)}`);
    host.dispose();
    await app.dispose();
    await mediaPlane.dispose();
    process.exit(1);
  }
  logger.addSecret(server.token);
  // Main's page origins are known only now: the media process accepts its page from here on.
  if (media.ok) await mediaPlane.reconfigure();
  const stopBlockingMain = startBlockMainHook(process.env, log);
  process.stdout.write(`Workbench: ${server.url}\n`);
  log(`data folder: ${dataDir}; log file: ${logger.path}`);
  if (args.open) openInBrowser(server.url, log);

  let stoppingSince = 0;
  const stop = async (signal: string) => {
    if (stoppingSince) {
      // Ctrl+C reaches both `npm start` (which forwards it) and us: a second signal right after the
      // first is that echo. Only a later one means "stop now".
      if (Date.now() - stoppingSince < 1000) return;
      log(`${signal} again: exiting without a clean shutdown`);
      process.exit(1);
    }
    stoppingSince = Date.now();
    log(`${signal}: shutting down`);
    stopBlockingMain();
    await server?.close();
    await mediaPlane.dispose();
    host?.dispose();
    await app.dispose();
    logger.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** Starts browser mode; `entryUrl` is the entry file's own URL (where the built app and its media process are). */
export function runBrowser(entryUrl: string): void {
  main(entryUrl).catch((err: unknown) => {
    log(`Workbench failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}

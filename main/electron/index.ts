/**
 * Electron entry (out/main/electron.js). The start-up order is the wiring diagram: scheme before
 * ready, single-instance lock, then log file, menu, protocol, media process, app services, host,
 * window, IPC gates.
 * Quitting disposes in reverse (streams cancelled, database closed) before the process exits.
 */
import { app, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { createApp, type App } from '../app';
import { contract } from '../../shared/contract/index';
import { appPaths } from '../host/app-paths';
import { resolveDataDir } from '../host/data-dir';
import { validPort } from '../sandbox/port-choice';
import { createHost, type Host } from '../host/host';
import { createLogger } from '../host/log-file';
import { createFilePicker, createSaveTargetChooser } from './dialogs';
import { setupFileIpc } from './file-ipc';
import { setupIpc } from './ipc';
import { createSafeStorageKeyStore } from './key-store';
import { setupMenu } from './menu';
import { createNotifier } from './notify';
import { registerAppScheme, setupAppProtocol } from './protocol';
import { mediaUrlOf, setupMediaProtocol } from './media-protocol';
import { createMainWindow } from './window';
import { startBlockMainHook } from '../media/block-main';
import { mediaEntryFor } from '../media/entry-path';
import { MediaPlane } from '../media/media-plane';
import { setupMediaPorts } from './media-ports';
import { utilityLauncher } from './media-utility';

/** Until the data folder (and so the log file) is known, diagnostics go to stderr alone. */
let log = (line: string): void => {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
};

/** `--data-dir DIR` / `--data-dir=DIR` from the command line, if given. */
function dataDirFlag(argv: readonly string[]): string | undefined {
  const i = argv.findIndex((a) => a === '--data-dir' || a.startsWith('--data-dir='));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice('--data-dir='.length) : argv[i + 1];
}

/** `--sandbox-port N` / `--sandbox-port=N`, when it names a usable port (else the usual choice: environment, setting, last, 4010). */
function sandboxPortFlag(argv: readonly string[]): number | undefined {
  const i = argv.findIndex((a) => a === '--sandbox-port' || a.startsWith('--sandbox-port='));
  if (i < 0) return undefined;
  const port = validPort(argv[i].includes('=') ? argv[i].slice('--sandbox-port='.length) : argv[i + 1]);
  if (port === null) log('--sandbox-port must be a whole number from 1024 to 65535; ignored');
  return port ?? undefined;
}

async function start(): Promise<void> {
  const paths = appPaths(import.meta.url);
  const dataDir = resolveDataDir(dataDirFlag(process.argv));
  const logger = createLogger({ dir: join(dataDir, 'logs'), stderr: true });
  log = logger.line;
  const disposers: Array<() => void | Promise<void>> = [() => logger.close()];
  let host: Host | null = null;
  let window: BrowserWindow | null = null;

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  await app.whenReady();
  const openPath = (path: string) => shell.openPath(path);
  // Media frames run in a utility process; pages reach it over MessagePorts (main/media).
  const mediaPlane = new MediaPlane({ launch: utilityLauncher(mediaEntryFor(import.meta.url).entry, log), log, transport: { kind: 'port' } });
  disposers.push(() => mediaPlane.dispose());
  setupMenu({ openLogFile: () => void openPath(logger.path).then((problem) => problem && log(`[menu] could not open the log: ${problem}`)) });
  disposers.push(setupAppProtocol(paths.rendererDir));
  const workbench: App = await createApp({
    dataDir,
    shell: 'electron',
    keyStore: createSafeStorageKeyStore(join(dataDir, 'keys.enc.json')),
    emit: (channel, payload) => host?.emit(channel, payload),
    log,
    addSecret: logger.addSecret,
    version: app.getVersion(),
    logPath: logger.path,
    pickFiles: createFilePicker(() => window),
    openPath,
    chooseSaveTarget: createSaveTargetChooser(() => window),
    mediaUrl: mediaUrlOf,
    sandboxPort: sandboxPortFlag(process.argv),
    notify: createNotifier(log),
    mediaPlane,
  });
  disposers.push(() => workbench.dispose());
  disposers.push(setupMediaProtocol(workbench.media.lookup));
  host = createHost({ contract, handlers: workbench.handlers, log, logPath: logger.path });
  const liveHost = host;
  disposers.push(() => liveHost.dispose());

  const gate = setupIpc({ host, contract, log });
  disposers.push(() => gate.dispose());
  const files = setupFileIpc({ userFiles: workbench.userFiles, log, logPath: logger.path });
  disposers.push(() => files.dispose());
  const mediaPorts = setupMediaPorts({ plane: mediaPlane, log });
  disposers.push(() => mediaPorts.dispose());
  void mediaPlane.start().then((started) => {
    if (!started.ok) log(`[media] ${started.error.message}`);
  });
  disposers.push(startBlockMainHook(process.env, log));
  window = createMainWindow({ preloadFile: paths.preloadFile, log, development: !app.isPackaged });
  gate.addWindow(window);
  files.addWindow(window);
  mediaPorts.addWindow(window);
  window.on('closed', () => {
    window = null;
  });

  app.on('window-all-closed', () => app.quit());
  let disposed = false;
  app.on('will-quit', (event) => {
    if (disposed) return;
    // Hold the quit until the database is closed; then quit for real.
    event.preventDefault();
    disposed = true;
    void (async () => {
      for (const dispose of disposers.splice(0).reverse()) {
        try {
          await dispose();
        } catch (err) {
          log(`shutdown: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      app.quit();
    })();
  });
}

registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start().catch((err: unknown) => {
    log(`Workbench failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    app.exit(1);
  });
}

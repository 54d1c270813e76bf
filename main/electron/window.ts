/**
 * The main window and its guards: isolated, sandboxed renderer with only our preload; navigation
 * away from app:// refused; new windows refused (http(s) links go to the user's browser after
 * they confirm); every permission request and check denied except writing to the clipboard and
 * the microphone (audio only, no camera), from our own page.
 */
import { BrowserWindow, dialog, shell, type Session, type WebContents } from 'electron';
import { APP_ENTRY_URL, isAppUrl, isExternalWebUrl } from './app-origin';

export interface MainWindowOptions {
  preloadFile: string;
  log: (line: string) => void;
  /** A development build: DevTools can open. Installed builds refuse them (menu and shortcut alike). */
  development?: boolean;
}

/** The one permission granted, and only to our own origin. */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

/** The BrowserWindow options; exported so a test can pin every security setting. */
export function mainWindowOptions(preloadFile: string, development = false): Electron.BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 920,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Inference Workbench',
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: development,
    },
  };
}

/** Asks before handing a link to the system browser. */
async function confirmExternal(window: BrowserWindow, url: string, log: (line: string) => void): Promise<void> {
  const { response } = await dialog.showMessageBox(window, {
    type: 'question',
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 0,
    cancelId: 1,
    message: 'Open this link in your web browser?',
    detail: url,
  });
  if (response === 0) await shell.openExternal(url).catch((err: Error) => log(`[window] could not open ${url}: ${err.message}`));
}

/** Refuses navigation, redirects and pop-ups away from our origin. */
export function guardNavigation(window: BrowserWindow, contents: WebContents, log: (line: string) => void): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    log(`[window] refused navigation to ${event.url}`);
  });
  contents.on('will-redirect', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    log(`[window] refused redirect to ${event.url}`);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void confirmExternal(window, url, log);
    else log(`[window] refused to open ${url}`);
    return { action: 'deny' };
  });
}

/**
 * The microphone ('media' asking for audio alone) for our own page: live transcription and the
 * realtime console capture from the page when the user picks its microphone. A request that
 * includes video (the camera) is refused, as is any other origin.
 */
function audioOnly(permission: string, mediaTypes: readonly string[] | undefined): boolean {
  return permission === 'media' && mediaTypes !== undefined && mediaTypes.length > 0 && mediaTypes.every((t) => t === 'audio');
}

/** Denies every permission except ALLOWED_PERMISSIONS and the microphone, for our own origin only. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = (details as { mediaTypes?: string[] }).mediaTypes;
    callback((ALLOWED_PERMISSIONS.has(permission) || audioOnly(permission, mediaTypes)) && isAppUrl(details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    const mediaType = (details as { mediaType?: string } | undefined)?.mediaType;
    return (ALLOWED_PERMISSIONS.has(permission) || audioOnly(permission, mediaType ? [mediaType] : undefined)) && isAppUrl(requestingOrigin);
  });
}

/** Creates the window, installs its guards and loads the app. */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(options.preloadFile, options.development ?? false));
  guardNavigation(window, window.webContents, options.log);
  denyPermissions(window.webContents.session);
  window.once('ready-to-show', () => window.show());
  window.loadURL(APP_ENTRY_URL).catch((err: Error) => options.log(`[window] could not load the app: ${err.message}`));
  return window;
}

import { beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => void;

const electron = vi.hoisted(() => {
  class FakeContents {
    readonly listeners = new Map<string, Listener>();
    openHandler: ((details: { url: string }) => { action: string }) | null = null;
    readonly session = { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() };
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
      return this;
    }
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.openHandler = handler;
    }
  }
  class FakeBrowserWindow {
    static last: FakeBrowserWindow | null = null;
    readonly webContents = new FakeContents();
    readonly loadURL = vi.fn(async () => {});
    readonly once = vi.fn();
    readonly show = vi.fn();
    constructor(readonly options: unknown) {
      FakeBrowserWindow.last = this;
    }
  }
  return {
    FakeBrowserWindow,
    FakeContents,
    dialog: { showMessageBox: vi.fn(async () => ({ response: 0 })) },
    shell: { openExternal: vi.fn(async () => {}) },
  };
});

vi.mock('electron', () => ({ BrowserWindow: electron.FakeBrowserWindow, dialog: electron.dialog, shell: electron.shell }));

const { createMainWindow, mainWindowOptions } = await import('../../../../main/electron/window');

function setup() {
  const log = vi.fn();
  createMainWindow({ preloadFile: '/app/out/preload/index.cjs', log });
  const win = electron.FakeBrowserWindow.last!;
  return { win, contents: win.webContents, log };
}

const navEvent = (url: string) => ({ url, preventDefault: vi.fn() });
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('window', () => {
  beforeEach(() => {
    vi.clearAllMocks();
  });

  describe('mainWindowOptions()', () => {
    it('isolates and sandboxes the renderer with only our preload', () => {
      expect(mainWindowOptions('/p/index.cjs').webPreferences).toMatchObject({
        preload: '/p/index.cjs',
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
      });
    });

    it('allows DevTools only in a development build', () => {
      expect(mainWindowOptions('/p/index.cjs').webPreferences?.devTools).toBe(false);
      expect(mainWindowOptions('/p/index.cjs', true).webPreferences?.devTools).toBe(true);
    });
  });

  describe('createMainWindow()', () => {
    it('loads the app from app://workbench, never file://', () => {
      const { win } = setup();
      expect(win.options).toEqual(mainWindowOptions('/app/out/preload/index.cjs'));
      expect(win.loadURL).toHaveBeenCalledWith('app://workbench/index.html');
    });

    it.each(['will-navigate', 'will-redirect'])('%s: refuses other origins and allows our own', (name) => {
      const { contents } = setup();
      const listener = contents.listeners.get(name)!;
      for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://evil/index.html', 'app://user@workbench/']) {
        const event = navEvent(url);
        listener(event);
        expect(event.preventDefault, url).toHaveBeenCalled();
      }
      const ours = navEvent('app://workbench/index.html#/history');
      listener(ours);
      expect(ours.preventDefault).not.toHaveBeenCalled();
    });

    it('refuses webviews', () => {
      const { contents } = setup();
      const event = navEvent('');
      contents.listeners.get('will-attach-webview')!(event);
      expect(event.preventDefault).toHaveBeenCalled();
    });

    it('denies new windows and opens a web link externally only after the user confirms', async () => {
      const { contents } = setup();
      expect(contents.openHandler!({ url: 'https://docs.example.com/a' })).toEqual({ action: 'deny' });
      await flush();
      expect(electron.dialog.showMessageBox).toHaveBeenCalledTimes(1);
      expect(electron.shell.openExternal).toHaveBeenCalledWith('https://docs.example.com/a');

      electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 1 });
      expect(contents.openHandler!({ url: 'https://docs.example.com/b' })).toEqual({ action: 'deny' });
      await flush();
      expect(electron.shell.openExternal).toHaveBeenCalledTimes(1);
    });

    it('never offers to open non-web URLs', async () => {
      const { contents } = setup();
      for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share']) {
        expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
      }
      await flush();
      expect(electron.dialog.showMessageBox).not.toHaveBeenCalled();
      expect(electron.shell.openExternal).not.toHaveBeenCalled();
    });

    it('denies permission requests and checks (clipboard writing only for our page)', () => {
      const { contents } = setup();
      const [request] = contents.session.setPermissionRequestHandler.mock.calls[0] as [Listener];
      const [check] = contents.session.setPermissionCheckHandler.mock.calls[0] as [(...a: unknown[]) => boolean];
      const answers: boolean[] = [];
      for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) {
        request(null, permission, (ok: boolean) => answers.push(ok), { requestingUrl: 'app://workbench/index.html' });
        answers.push(check(null, permission, 'app://workbench'));
      }
      expect(answers.every((a) => a === false)).toBe(true);
      request(null, 'clipboard-sanitized-write', (ok: boolean) => answers.push(ok), { requestingUrl: 'https://evil.example/' });
      expect(answers.at(-1)).toBe(false);
      expect(check(null, 'clipboard-sanitized-write', 'https://evil.example')).toBe(false);
      expect(check(null, 'clipboard-sanitized-write', 'app://workbench')).toBe(true);
    });

    it('allows the microphone (audio alone) to our page only: no camera, no other origin', () => {
      const { contents } = setup();
      const [request] = contents.session.setPermissionRequestHandler.mock.calls[0] as [Listener];
      const [check] = contents.session.setPermissionCheckHandler.mock.calls[0] as [(...a: unknown[]) => boolean];
      const ask = (mediaTypes: string[] | undefined, requestingUrl: string) => {
        let answer: boolean | null = null;
        request(null, 'media', (ok: boolean) => (answer = ok), { requestingUrl, mediaTypes });
        return answer;
      };
      expect(ask(['audio'], 'app://workbench/index.html')).toBe(true);
      expect(ask(['audio', 'video'], 'app://workbench/index.html')).toBe(false);
      expect(ask(['video'], 'app://workbench/index.html')).toBe(false);
      expect(ask([], 'app://workbench/index.html')).toBe(false);
      expect(ask(['audio'], 'https://evil.example/')).toBe(false);
      expect(ask(['audio'], 'app://other/index.html')).toBe(false);
      expect(check(null, 'media', 'app://workbench', { mediaType: 'audio' })).toBe(true);
      expect(check(null, 'media', 'app://workbench', { mediaType: 'video' })).toBe(false);
      expect(check(null, 'media', 'app://workbench', { mediaType: 'unknown' })).toBe(false);
      expect(check(null, 'media', 'https://evil.example', { mediaType: 'audio' })).toBe(false);
    });
  });
});

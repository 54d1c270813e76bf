import { afterEach, describe, expect, it, vi } from 'vitest';
import { contract } from '../../../../shared/contract/index';
import { IPC_STREAM_END } from '../../../../shared/contract/protocol';
import { createHost } from '../../../../main/host/host';
import { setupIpc, type IpcGate } from '../../../../main/electron/ipc';
import { createFakeHandlers, FAKE_INFO, fakeRun, WAIT_FOR_CANCEL } from '../host/fake-handlers';
import { createFakeWindow, fakeIpcMain } from '../../../integration/transports/fake-electron';

vi.mock('electron', async () => ({ ipcMain: (await import('../../../integration/transports/fake-electron')).fakeIpcMain }));

let gate: IpcGate | null = null;

function setup() {
  const fake = createFakeHandlers();
  const host = createHost({ contract, handlers: fake.handlers });
  const log = vi.fn<(line: string) => void>();
  gate = setupIpc({ host, contract, log });
  const ours = createFakeWindow();
  gate.addWindow(ours.window);
  return { ...fake, host, log, ours };
}

const chat = (model: string) => ({ request: { model, messages: [{ role: 'user', content: 'hi' }] } });

afterEach(() => {
  gate?.dispose();
  gate = null;
});

describe('ipc', () => {
  describe('setupIpc()', () => {
    it('serves our window’s main frame', async () => {
      const { ours } = setup();
      expect(await ours.ipcRenderer.invoke('app.info')).toEqual({ ok: true, value: FAKE_INFO });
    });

    it('registers one handler per call and stream operation, replacing earlier ones', () => {
      setup();
      expect(() => setup()).not.toThrow();
      expect([...fakeIpcMain.handlers.keys()].sort()).toEqual(
        ['app.info', 'app.openLog', 'chat.follow', 'chat.send', 'completions.complete', 'completions.send', 'connections.list', 'connections.remove', 'connections.save',
          'connections.select', 'connections.setSandboxPort', 'connections.test', 'drafts.clear', 'drafts.get', 'drafts.list', 'drafts.put', 'files.createPublicUrl', 'files.download', 'files.get', 'files.list', 'files.local',
          'files.ofRun', 'files.remove', 'files.revokePublicUrl', 'files.update', 'files.upload', 'files.uploadCancelled', 'history.events', 'history.exportJsonl', 'history.facets', 'history.get', 'history.remove', 'history.request', 'history.search', 'history.session', 'history.timeline',
          'jobs.cancel', 'jobs.get', 'jobs.list', 'jobs.retryNow', 'media.channel', 'media.url', 'audio.devices', 'messages.send', 'models.catalogue', 'responses.chains', 'responses.compact', 'responses.create', 'responses.remove',
          'responses.retrieve', 'responses.tree', 'streams.cancel', 'tools.load', 'tools.save', 'userFiles.pick', 'userFiles.release', 'userFiles.upload', 'ops.cancel', 'ops.send', 'ops.close',
          'images.generate', 'images.edit', 'images.ofRun', 'speech.synthesize', 'speech.stream', 'speech.voices', 'speech.ofRun', 'videos.create', 'videos.list', 'videos.get', 'videos.cancel', 'videos.retry', 'videos.dismiss', 'videos.ofItem', 'transcription.transcribe', 'transcription.ofRun',
          'gallery.list', 'gallery.get', 'gallery.remove', 'gallery.setThumb', 'gallery.save', 'gallery.ofRun', 'gallery.byHash', 'gallery.keepInput',
          'voices.builtIn', 'voices.list', 'voices.get', 'voices.create', 'voices.update', 'voices.remove', 'voices.referenceAudio', 'voices.preview',
          'live.list', 'live.start', 'live.stop', 'live.attach', 'ops.subscribe', 'ops.unsubscribe'].sort(),
      );
    });

    it('rejects a message from a sub-frame of our window without running the handler', async () => {
      const { ours, sessions, log } = setup();
      const frame = { ...ours.webContents.mainFrame, routingId: 99 };
      await expect(ours.ipcRenderer.invokeFrom(frame, 'app.info')).rejects.toThrow(/only available to the workbench window/);
      expect(sessions).toEqual([]);
      expect(log).toHaveBeenCalledWith(expect.stringContaining('refused app.info'));
    });

    it('rejects our main frame once it shows another origin', async () => {
      const { ours, sessions } = setup();
      const frame = { ...ours.webContents.mainFrame, url: 'https://evil.example/' };
      await expect(ours.ipcRenderer.invokeFrom(frame, 'app.info')).rejects.toThrow();
      await expect(ours.ipcRenderer.invokeFrom(null, 'app.info')).rejects.toThrow();
      expect(sessions).toEqual([]);
    });

    it('rejects a window that was never added, even on our origin', async () => {
      const { sessions } = setup();
      const stranger = createFakeWindow();
      await expect(stranger.ipcRenderer.invoke('app.info')).rejects.toThrow();
      await expect(stranger.ipcRenderer.invoke('chat.send', chat('m'), 'stream-0001')).rejects.toThrow();
      expect(sessions).toEqual([]);
    });

    it('removes every handler on dispose', () => {
      setup();
      gate!.dispose();
      expect(fakeIpcMain.handlers.size).toBe(0);
    });
  });

  describe('addWindow()', () => {
    it('cancels the window’s streams when it is destroyed', async () => {
      const { ours, signals } = setup();
      await ours.ipcRenderer.invoke('chat.send', chat(WAIT_FOR_CANCEL), 'stream-0001');
      ours.webContents.destroy();
      expect(signals[0].aborted).toBe(true);
      await expect(ours.ipcRenderer.invoke('app.info')).rejects.toThrow();
    });

    it('cancels the old page’s streams on reload and keeps serving the new page', async () => {
      const { ours, signals } = setup();
      const ended = new Promise<unknown>((resolve) => ours.ipcRenderer.on(IPC_STREAM_END, (_e, _id, reply) => resolve(reply)));
      await ours.ipcRenderer.invoke('chat.send', chat(WAIT_FOR_CANCEL), 'stream-0001');
      ours.webContents.emit('did-navigate');
      expect(signals[0].aborted).toBe(true);
      expect(await ended).toMatchObject({ ok: true, value: { status: 'cancelled' } });
      expect(await ours.ipcRenderer.invoke('app.info')).toEqual({ ok: true, value: FAKE_INFO });
    });

    it('still ends a stream whose result cannot cross IPC, with an internal error', async () => {
      const fake = createFakeHandlers();
      const host = createHost({
        contract,
        handlers: { ...fake.handlers, chat: { ...fake.handlers.chat, send: async () => ({ ...fakeRun('completed', 'm'), notCloneable: () => 1 }) } },
      });
      gate = setupIpc({ host, contract, log: () => {} });
      const ours = createFakeWindow();
      gate.addWindow(ours.window);
      const ended = new Promise<unknown>((resolve) => ours.ipcRenderer.on(IPC_STREAM_END, (_e, _id, reply) => resolve(reply)));
      await ours.ipcRenderer.invoke('chat.send', chat('m'), 'stream-0001');
      expect(await ended).toMatchObject({ ok: false, error: { code: 'internal' } });
    });

    it('answers a stream started without a stream id with invalid_input', async () => {
      const { ours } = setup();
      expect(await ours.ipcRenderer.invoke('chat.send', chat('m'))).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    });
  });
});

/**
 * Electron's frame channel with a mocked electron module: ipcMain, MessageChannelMain (over Node's
 * MessageChannel) and the window's postMessage. The media process runs in this process here
 * (MediaProcess behind an in-memory launcher), so the whole path is real: preload bridge ->
 * main hands a port to each side -> the page's media channel receives the synthetic source's
 * frames and sends its own back, none of them through main's listeners.
 */
import { EventEmitter } from 'node:events';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  class FakeIpcMain {
    readonly listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    on(channel: string, listener: (...args: unknown[]) => void) {
      if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
      this.listeners.get(channel)!.add(listener);
      return this;
    }
    off(channel: string, listener: (...args: unknown[]) => void) {
      this.listeners.get(channel)?.delete(listener);
      return this;
    }
    removeAllListeners(channel: string) {
      this.listeners.delete(channel);
      return this;
    }
    emit(channel: string, ...args: unknown[]) {
      for (const l of [...(this.listeners.get(channel) ?? [])]) l(...args);
    }
  }
  return { ipcMain: new FakeIpcMain(), channels: [] as unknown[] };
});

/** Electron's MessagePortMain over a Node MessagePort: `message` events carry `{ data }`. */
class FakePortMain extends EventEmitter {
  constructor(readonly port: MessagePort) {
    super();
    port.on('message', (data) => this.emit('message', { data, ports: [] }));
    port.on('close', () => this.emit('close'));
  }
  postMessage(message: unknown) {
    this.port.postMessage(message);
  }
  start() {
    this.port.start();
  }
  close() {
    this.port.close();
  }
}

vi.mock('electron', () => ({
  ipcMain: electron.ipcMain,
  MessageChannelMain: class {
    readonly port1: FakePortMain;
    readonly port2: FakePortMain;
    constructor() {
      const { port1, port2 } = new MessageChannel();
      this.port1 = new FakePortMain(port1);
      this.port2 = new FakePortMain(port2);
      electron.channels.push(this);
    }
  },
}));

const { setupMediaPorts } = await import('../../../../main/electron/media-ports');
const { MediaPlane } = await import('../../../../main/media/media-plane');
const { MediaProcess } = await import('../../../../main/media/media-process');
const { mediaSessionKinds } = await import('../../../../main/media/kinds');
const { createMediaBridge } = await import('../../../../preload/media-bridge');
const { createMediaChannel, electronFramePort } = await import('../../../../renderer/src/bridge/media-channel');
const { FrameKind } = await import('../../../../shared/media-frames/frame');
const { IPC_MEDIA_PORT, IPC_MEDIA_PORT_REQUEST } = await import('../../../../shared/contract/media-channel');

type Listener = (event: { ports: unknown[] }, reply: unknown) => void;

/** A window whose page runs the real preload bridge; `postMessage` hands ports over as Electron does. */
function fakeWindow(url = 'app://workbench/index.html') {
  const rendererListeners = new Map<string, Listener>();
  const contents = Object.assign(new EventEmitter(), {
    id: 7,
    mainFrame: { processId: 7, routingId: 1, url },
    isDestroyed: () => false,
    postMessage: vi.fn((channel: string, message: unknown, ports: FakePortMain[] = []) => {
      // The page gets a DOM-style MessagePort (Node's is one: addEventListener, start, close).
      setImmediate(() => rendererListeners.get(channel)?.({ ports: ports.map((p) => p.port) }, structuredClone(message)));
    }),
  });
  const ipcRenderer = {
    send: (channel: string, ...args: unknown[]) => electron.ipcMain.emit(channel, { sender: contents, senderFrame: contents.mainFrame }, ...args),
    on: (channel: string, listener: Listener) => void rendererListeners.set(channel, listener),
  };
  return { window: { webContents: contents } as never, contents, ipcRenderer };
}

/** A MediaPlane whose media process runs here, behind the same control messages. */
function inProcessPlane() {
  const toMain = new Set<(message: unknown) => void>();
  let toMedia: ((message: unknown, ports: readonly never[]) => void) | null = null;
  const media = new MediaProcess({
    kinds: mediaSessionKinds(),
    pid: 4242,
    control: {
      send: (message) => setImmediate(() => toMain.forEach((l) => l(structuredClone(message)))),
      onMessage: (listener) => void (toMedia = listener as never),
    },
  });
  const posted: unknown[] = [];
  const plane = new MediaPlane({
    log: () => {},
    transport: { kind: 'port' },
    launch: () => ({
      postMessage: (message, transfer) => {
        posted.push(message);
        setImmediate(() => toMedia?.(message, (transfer ?? []) as never[]));
      },
      onMessage: (listener) => void toMain.add(listener),
      onExit: () => {},
      kill: () => {},
    }),
  });
  // The in-memory "process" said ready before the plane listened: say it again.
  void media;
  return { plane, media, posted, ready: () => toMain.forEach((l) => l({ t: 'ready', pid: 4242 })) };
}

afterEach(() => {
  electron.ipcMain.listeners.clear();
  electron.channels.length = 0;
});

describe('Electron media ports', () => {
  it('gives our page a port to the media process and frames flow both ways past main', async () => {
    const { plane, media, posted, ready } = inProcessPlane();
    const starting = plane.start();
    ready();
    expect(await starting).toEqual({ ok: true, value: null });
    const events: unknown[] = [];
    plane.onEvent((e) => events.push(e));
    const ports = setupMediaPorts({ plane, log: vi.fn() });
    const win = fakeWindow();
    ports.addWindow(win.window);

    const started = await plane.startSession('call', 'synthetic', { intervalMs: 5, frames: 40, payloadBytes: 64, waitForSubscriber: true, expectInbound: 40 });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const bridge = createMediaBridge(win.ipcRenderer as never);
    const channel = createMediaChannel({ connect: electronFramePort(bridge) });
    const indices: number[] = [];
    channel.onFrame(started.value.streams.out, (frame) => {
      indices.push(new DataView(frame.payload.buffer, frame.payload.byteOffset, 4).getUint32(0));
      channel.send(started.value.streams.in, FrameKind.Data, frame.payload.slice());
    });
    await vi.waitFor(() => expect(indices.length).toBe(40), { timeout: 10_000 });
    expect(indices).toEqual([...Array(40).keys()]);
    expect(win.contents.postMessage).toHaveBeenCalledWith(IPC_MEDIA_PORT, { requestId: 1 }, [expect.any(FakePortMain)]);
    expect(posted).toContainEqual({ t: 'port', channelId: 'window-7-1' });

    // The source says when every echo came back; then it reports its own counts.
    await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ event: 'inbound-complete' })), { timeout: 10_000 });
    await plane.stopSession('call');
    await vi.waitFor(() => expect(events).toContainEqual(expect.objectContaining({ event: 'stats' })));
    const stats = (events.find((e) => (e as { event?: string }).event === 'stats') as { data: { inbound: { delivered: number; gaps: number } } }).data;
    expect(stats.inbound).toMatchObject({ delivered: 40, gaps: 0 });
    channel.close();
    ports.dispose();
    await media.dispose();
  });

  it('refuses a page on another origin, and answers an error value when the media process is down', async () => {
    const log = vi.fn();
    const plane = { start: vi.fn(async () => ({ ok: false as const, error: { code: 'internal' as const, message: 'The media process failed.' } })), postPort: vi.fn(() => true) };
    const ports = setupMediaPorts({ plane, log });
    const evil = fakeWindow('https://evil.example/');
    ports.addWindow(evil.window);
    evil.ipcRenderer.send(IPC_MEDIA_PORT_REQUEST, { requestId: 1 });
    expect(log).toHaveBeenCalledWith(expect.stringContaining('refused a media port to https://evil.example/'));
    expect(plane.start).not.toHaveBeenCalled();

    const ours = fakeWindow();
    ports.addWindow(ours.window);
    const bridge = createMediaBridge(ours.ipcRenderer as never);
    await expect(bridge.open(() => {}, () => {})).rejects.toThrow('The media process failed.');
    expect(plane.postPort).not.toHaveBeenCalled();

    plane.start.mockResolvedValueOnce({ ok: true, value: null } as never);
    plane.postPort.mockReturnValueOnce(false);
    await expect(bridge.open(() => {}, () => {})).rejects.toThrow(/restarting/);
    ports.dispose();
  });
});

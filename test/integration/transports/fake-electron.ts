/**
 * An in-memory ipcMain/ipcRenderer pair standing in for Electron: `invoke` runs the handler with
 * a sender and sender frame, arguments and results are structured-cloned like real IPC, and every
 * message to the page (webContents.send and invoke replies) is delivered through one FIFO so
 * ordering matches Electron's single pipe per frame.
 */
import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import type { IpcRendererLike } from '../../../preload/ipc-transport';

type MainHandler = (event: unknown, ...args: unknown[]) => unknown;

export class FakeIpcMain {
  readonly handlers = new Map<string, MainHandler>();
  /** `ipcMain.on` listeners (messages the page sends without waiting: stream acknowledgements). */
  readonly listeners = new Map<string, Set<MainHandler>>();
  on(channel: string, listener: MainHandler): this {
    if (!this.listeners.has(channel)) this.listeners.set(channel, new Set());
    this.listeners.get(channel)!.add(listener);
    return this;
  }
  off(channel: string, listener: MainHandler): this {
    this.listeners.get(channel)?.delete(listener);
    return this;
  }
  removeAllListeners(channel: string): this {
    this.listeners.delete(channel);
    return this;
  }
  handle(channel: string, handler: MainHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

/** The one ipcMain every test shares (vi.mock('electron') hands this out). */
export const fakeIpcMain = new FakeIpcMain();

export interface FakeFrame {
  processId: number;
  routingId: number;
  url: string;
}

type RendererListener = (event: unknown, ...args: unknown[]) => void;

export class FakeWebContents extends EventEmitter {
  readonly mainFrame: FakeFrame;
  readonly renderer: FakeIpcRenderer;
  private destroyed = false;
  constructor(
    readonly id: number,
    url: string,
  ) {
    super();
    this.mainFrame = { processId: id, routingId: 1, url };
    this.renderer = new FakeIpcRenderer(this);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    this.renderer.deliver(channel, structuredClone(args));
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

export class FakeIpcRenderer implements IpcRendererLike {
  private readonly listeners = new Map<string, Set<RendererListener>>();
  private pipe: Promise<void> = Promise.resolve();
  /** What page code would get as the IpcRendererEvent; the preload must never pass it on. */
  static readonly EVENT = Object.freeze({ sender: 'ipc-renderer-event' });

  constructor(private readonly contents: FakeWebContents) {}

  /** Queues a message to this page behind everything already in flight. */
  enqueue(run: () => void): void {
    this.pipe = this.pipe.then(() => new Promise<void>((resolve) => setImmediate(() => (run(), resolve()))));
  }

  /** Holds every later message to the page until the returned function is called (a renderer that stopped running). */
  pause(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.pipe = this.pipe.then(() => held);
    return release;
  }

  deliver(channel: string, args: unknown[]): void {
    this.enqueue(() => {
      for (const listener of [...(this.listeners.get(channel) ?? [])]) listener(FakeIpcRenderer.EVENT, ...args);
    });
  }

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    return this.invokeFrom(this.contents.mainFrame, channel, ...args);
  }

  /** ipcRenderer.send: delivered to ipcMain.on listeners, asynchronously, structured-cloned. */
  send(channel: string, ...args: unknown[]): void {
    const event = { sender: this.contents, senderFrame: this.contents.mainFrame };
    const copied = structuredClone(args);
    setImmediate(() => {
      for (const listener of [...(fakeIpcMain.listeners.get(channel) ?? [])]) listener(event, ...copied);
    });
  }

  /** Like invoke, but as if sent by `frame` (a sub-frame, or a page on another origin). */
  invokeFrom(frame: FakeFrame | null, channel: string, ...args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const handler = fakeIpcMain.handlers.get(channel);
      if (!handler) {
        reject(new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`));
        return;
      }
      const event = { sender: this.contents, senderFrame: frame };
      Promise.resolve()
        .then(() => handler(event, ...structuredClone(args)))
        .then(
          (value) => this.enqueue(() => resolve(structuredClone(value))),
          (err: unknown) => this.enqueue(() => reject(new Error(`Error invoking remote method '${channel}': ${String(err)}`))),
        );
    });
  }

  on(channel: string, listener: RendererListener): this {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return this;
  }

  removeListener(channel: string, listener: RendererListener): this {
    this.listeners.get(channel)?.delete(listener);
    return this;
  }

  /** A reload: the old page's listeners are gone with its world. */
  reset(): void {
    this.listeners.clear();
  }

  listenerCount(channel: string): number {
    return this.listeners.get(channel)?.size ?? 0;
  }
}

let nextId = 1;

/** A window showing `url` (our app by default), as far as the IPC gate can tell. */
export function createFakeWindow(url = 'app://workbench/index.html') {
  const webContents = new FakeWebContents(nextId++, url);
  const window = { webContents } as unknown as BrowserWindow;
  return { window, webContents, ipcRenderer: webContents.renderer };
}

/**
 * Copies a value across a fake contextBridge the way Electron's does (as far as this suite needs):
 * functions are proxied (their arguments and results cross too), promises settle across, typed
 * arrays and plain data are copied, and any other object loses its prototype (an AbortSignal
 * arrives as an inert `{}`). An Error, thrown or rejected or passed, arrives as a new plain Error
 * with only its message: Electron drops the prototype and custom properties (a WorkbenchFailure's
 * `.error` does not survive).
 */
export function acrossContextBridge<T>(value: T): T {
  return cross(value) as T;
}

function copyError(err: unknown): unknown {
  return err instanceof Error ? new Error(err.message) : cross(err);
}

function cross(value: unknown): unknown {
  if (typeof value === 'function') {
    return (...args: unknown[]) => {
      let out: unknown;
      try {
        out = (value as (...a: unknown[]) => unknown)(...args.map(cross));
      } catch (err) {
        throw copyError(err);
      }
      return cross(out);
    };
  }
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Promise) {
    return value.then(cross, (err: unknown) => {
      throw copyError(err);
    });
  }
  if (value instanceof Uint8Array) return new Uint8Array(value);
  if (value instanceof Error) return copyError(value);
  if (Array.isArray(value)) return value.map(cross);
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = cross(child);
  return Object.freeze(out);
}

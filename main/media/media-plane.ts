/**
 * Main's side of the media plane: starts the media process (through a launcher: a forked child
 * in browser mode, an Electron utility process), asks it to start and stop media sessions, keeps
 * a clock offset to it, and hands its events (for recording) and session ends to listeners. Every
 * answer is a value; a media process that crashes is reported, its sessions reported ended, and
 * it is started again (with a growing delay; after `maxCrashes` within `windowMs` it is left
 * stopped and `media.channel` says why). Main keeps control, recording and SQLite: the media
 * process only ever sees sessions' options and frames.
 */
import { ClockOffset, monotonicMs, type ClockEstimate } from '../../shared/media-frames/clock';
import type { WorkbenchError } from '../../shared/contract/errors';
import type { MediaChannelInfo } from '../../shared/contract/media';
import type { NativeAudioDevices } from '../../shared/contract/audio';
import type { Reply } from '../../shared/contract/protocol';
import { failure, FromMediaSchema, type FromMedia, type MediaConfig, type MediaConfigured, type MediaSessionStarted, type ToMedia } from './protocol';

/** One running media process, as a launcher gives it. */
export interface MediaChild {
  postMessage(message: ToMedia, transfer?: readonly unknown[]): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  kill(): void;
}
export type LaunchMedia = () => MediaChild;

export type MediaPlaneEvent =
  | { type: 'session-event'; sessionId: string; event: string; at: number; data: unknown }
  | { type: 'session-ended'; sessionId: string; error?: WorkbenchError }
  | { type: 'crashed'; code: number | null; signal: string | null; restarting: boolean }
  | { type: 'restarted' }
  /** The native device list changed (hot-plug); sent once `devices()` has been asked. */
  | { type: 'devices-changed'; devices: NativeAudioDevices };

export type MediaPlaneStatus = 'stopped' | 'starting' | 'running' | 'restarting' | 'failed';

export interface MediaPlaneOptions {
  launch: LaunchMedia;
  log: (line: string) => void;
  /** 'websocket': browser mode (the process serves frames to these origins); 'port': Electron MessagePorts. */
  transport: { kind: 'websocket'; origins: () => readonly string[] } | { kind: 'port' };
  now?: () => number;
  /** A request the process does not answer in this long fails (as a value). Default 10 s. */
  requestTimeoutMs?: number;
  restart?: Partial<RestartPolicy>;
}

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Crashes within `windowMs` after which the process is left stopped. */
  maxCrashes: number;
  windowMs: number;
}

const DEFAULT_RESTART: RestartPolicy = { initialDelayMs: 250, maxDelayMs: 5000, maxCrashes: 5, windowMs: 60_000 };

interface Pending {
  resolve(reply: Reply<unknown>): void;
  timer: ReturnType<typeof setTimeout>;
}

export class MediaPlane {
  private child: MediaChild | null = null;
  private status_: MediaPlaneStatus = 'stopped';
  private readonly pending = new Map<number, Pending>();
  private readonly pings = new Map<number, (pong: Extract<FromMedia, { t: 'pong' }>) => void>();
  private nextId = 1;
  private readonly sessions = new Set<string>();
  private readonly listeners = new Set<(event: MediaPlaneEvent) => void>();
  private readonly clock = new ClockOffset();
  private readonly restart: RestartPolicy;
  private readonly now: () => number;
  private crashes: number[] = [];
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private cancelRestart: (() => void) | null = null;
  private ready: Promise<Reply<null>> | null = null;
  private configured: MediaConfigured = {};
  private failedBecause: string | null = null;
  private disposed = false;
  private pid_: number | null = null;

  constructor(private readonly options: MediaPlaneOptions) {
    this.restart = { ...DEFAULT_RESTART, ...options.restart };
    this.now = options.now ?? monotonicMs;
  }

  /** The running media process's pid (from its `ready`), for diagnostics and tests. */
  get pid(): number | null {
    return this.pid_;
  }

  get status(): MediaPlaneStatus {
    return this.status_;
  }

  /** Starts the process (once; later calls wait for the same start). */
  start(): Promise<Reply<null>> {
    this.ready ??= this.launch();
    return this.ready;
  }

  onEvent(listener: (event: MediaPlaneEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async startSession(sessionId: string, kind: string, options: unknown): Promise<Reply<MediaSessionStarted>> {
    const up = await this.whenRunning();
    if (!up.ok) return up;
    const reply = (await this.request({ t: 'start', id: 0, sessionId, kind, options })) as Reply<MediaSessionStarted>;
    if (reply.ok) this.sessions.add(sessionId);
    return reply;
  }

  async stopSession(sessionId: string): Promise<Reply<null>> {
    if (!this.sessions.has(sessionId)) return { ok: true, value: null };
    const reply = (await this.request({ t: 'stop', id: 0, sessionId })) as Reply<null>;
    this.sessions.delete(sessionId);
    return reply;
  }

  /** A kind's own control message to a running session (its answer, or why it was refused). */
  async controlSession(sessionId: string, message: unknown): Promise<Reply<unknown>> {
    if (!this.sessions.has(sessionId)) return { ok: false, error: { code: 'not_found', message: `No media session ${sessionId} is running.` } };
    return (await this.request({ t: 'control', id: 0, sessionId, message })) as Reply<unknown>;
  }

  /** The native audio devices, as the media process (where naudiodon loads) lists them. */
  async devices(): Promise<Reply<NativeAudioDevices>> {
    const up = await this.whenRunning();
    if (!up.ok) return up;
    return (await this.request({ t: 'devices', id: 0 })) as Reply<NativeAudioDevices>;
  }

  /** Where a page opens its frame channel (the answer of the `media.channel` operation). */
  async channel(): Promise<Reply<MediaChannelInfo>> {
    const up = await this.whenRunning();
    if (!up.ok) return up;
    if (this.options.transport.kind === 'port') return { ok: true, value: { transport: 'port' } };
    const server = this.configured.frameServer;
    if (!server) return failure('internal', 'The media process did not open its frame channel; the details are in the log.');
    return { ok: true, value: { transport: 'websocket', url: `ws://127.0.0.1:${server.port}/media`, token: server.token } };
  }

  /** Electron: hands a page's MessagePort to the media process as channel `channelId`. */
  postPort(channelId: string, port: unknown): boolean {
    if (!this.child || this.status_ !== 'running') return false;
    this.child.postMessage({ t: 'port', channelId }, [port]);
    return true;
  }

  /** Takes `samples` clock samples; the estimate is the media process's clock minus main's. */
  async syncClock(samples = 5): Promise<ClockEstimate | null> {
    for (let i = 0; i < samples && this.child && this.status_ === 'running'; i++) {
      const id = this.nextId++;
      const t0 = this.now();
      const pong = await new Promise<Extract<FromMedia, { t: 'pong' }> | null>((resolve) => {
        const timer = setTimeout(() => {
          this.pings.delete(id);
          resolve(null);
        }, 1000);
        this.pings.set(id, (p) => {
          clearTimeout(timer);
          resolve(p);
        });
        this.child?.postMessage({ t: 'ping', id, t0 });
      });
      if (pong) this.clock.add(pong.t0, pong.t1, pong.t2, this.now());
    }
    return this.clock.estimate();
  }

  clockEstimate(): ClockEstimate | null {
    return this.clock.estimate();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.cancelRestart?.();
    const child = this.child;
    this.child = null;
    this.status_ = 'stopped';
    this.failAll('The media process was stopped.');
    if (!child) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve();
      }, 2000);
      child.onExit(() => {
        clearTimeout(timer);
        resolve();
      });
      try {
        child.postMessage({ t: 'shutdown' });
      } catch {
        child.kill();
      }
    });
  }

  private async whenRunning(): Promise<Reply<null>> {
    if (this.disposed) return failure('internal', 'The media process was stopped.');
    if (this.status_ === 'failed') return failure('internal', this.failedBecause ?? 'The media process failed.');
    return this.start();
  }

  private emit(event: MediaPlaneEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.options.log(`[media] a listener failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  private launch(): Promise<Reply<null>> {
    this.status_ = this.crashes.length > 0 ? 'restarting' : 'starting';
    return new Promise<Reply<null>>((resolve) => {
      let child: MediaChild;
      try {
        child = this.options.launch();
      } catch (err) {
        const message = `The media process could not be started: ${err instanceof Error ? err.message : String(err)}`;
        this.options.log(`[media] ${message}`);
        this.crashed(null, null);
        return resolve(failure('internal', message));
      }
      this.child = child;
      let settled = false;
      const settle = (reply: Reply<null>) => {
        if (!settled) resolve(reply);
        settled = true;
      };
      child.onExit((code, signal) => {
        if (this.child !== child) return;
        this.child = null;
        settle(failure('internal', `The media process exited while starting (exit code ${code ?? signal}); the details are in the log.`));
        this.crashed(code, signal);
      });
      child.onMessage((raw) => {
        if (this.child !== child) return;
        const parsed = FromMediaSchema.safeParse(raw);
        if (!parsed.success) {
          this.options.log(`[media] ignored a malformed message from the media process: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
          return;
        }
        const message = parsed.data;
        if (message.t === 'ready') {
          this.pid_ = message.pid;
          this.options.log(`[media] the media process (pid ${message.pid}) is up`);
          void this.configure().then((reply) => {
            if (this.child !== child) return;
            if (reply.ok) {
              this.status_ = 'running';
              if (this.crashes.length > 0) this.emit({ type: 'restarted' });
            }
            settle(reply);
          });
        } else this.onMessage(message);
      });
    });
  }

  /** Browser mode: the frame server's port (stable across restarts while it is free), once running. */
  get frameServerPort(): number | null {
    return this.configured.frameServer?.port ?? null;
  }

  /** Sends the configuration again (browser mode: main's page origins are known now). */
  async reconfigure(): Promise<Reply<null>> {
    const up = await this.whenRunning();
    if (!up.ok) return up;
    return this.configure();
  }

  private async configure(): Promise<Reply<null>> {
    const transport = this.options.transport;
    const port = this.configured.frameServer?.port ?? 0;
    const config: MediaConfig = transport.kind === 'websocket' ? { frameServer: { origins: [...transport.origins()], port } } : {};
    const reply = (await this.request({ t: 'configure', id: 0, config })) as Reply<MediaConfigured>;
    if (!reply.ok) return reply;
    this.configured = reply.value;
    return { ok: true, value: null };
  }

  private onMessage(message: FromMedia): void {
    switch (message.t) {
      case 'reply': {
        const entry = this.pending.get(message.id);
        if (!entry) return;
        this.pending.delete(message.id);
        clearTimeout(entry.timer);
        entry.resolve(message.reply as Reply<unknown>);
        return;
      }
      case 'pong':
        this.pings.get(message.id)?.(message);
        this.pings.delete(message.id);
        return;
      case 'event':
        this.emit({ type: 'session-event', sessionId: message.sessionId, event: message.type, at: message.at, data: message.data });
        return;
      case 'ended':
        this.sessions.delete(message.sessionId);
        this.emit({ type: 'session-ended', sessionId: message.sessionId, ...(message.error ? { error: message.error } : {}) });
        return;
      case 'log':
        this.options.log(message.line);
        return;
      case 'devices-changed':
        this.emit({ type: 'devices-changed', devices: message.devices });
        return;
      case 'ready':
        return;
    }
  }

  private request(message: Extract<ToMedia, { id: number }>): Promise<Reply<unknown>> {
    const child = this.child;
    if (!child) return Promise.resolve(failure('internal', 'The media process is not running.'));
    const id = this.nextId++;
    return new Promise<Reply<unknown>>((resolve) => {
      const timeoutMs = this.options.requestTimeoutMs ?? 10_000;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(failure('timeout', `The media process did not answer "${message.t}" within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, timer });
      try {
        child.postMessage({ ...message, id });
      } catch (err) {
        this.pending.delete(id);
        clearTimeout(timer);
        resolve(failure('internal', `The media process could not be reached: ${err instanceof Error ? err.message : String(err)}`));
      }
    });
  }

  private failAll(message: string): void {
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(failure('internal', message));
      this.pending.delete(id);
    }
  }

  private crashed(code: number | null, signal: string | null): void {
    if (this.disposed) return;
    const why = `The media process stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`})`;
    this.options.log(`[media] ${why}`);
    this.failAll(`${why}; try again in a moment.`);
    for (const sessionId of [...this.sessions]) {
      this.sessions.delete(sessionId);
      this.emit({ type: 'session-ended', sessionId, error: { code: 'internal', message: `${why}: this media session ended. Its recording up to now is kept.` } });
    }
    const now = this.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.restart.windowMs), now];
    const restarting = this.crashes.length < this.restart.maxCrashes;
    this.emit({ type: 'crashed', code, signal, restarting });
    this.ready = null;
    if (!restarting) {
      this.status_ = 'failed';
      this.failedBecause = `${why} ${this.crashes.length} times within ${Math.round(this.restart.windowMs / 1000)} s, so it is no longer restarted; live audio is unavailable until the workbench restarts. The details are in the log.`;
      this.options.log(`[media] ${this.failedBecause}`);
      return;
    }
    this.status_ = 'restarting';
    const delay = Math.min(this.restart.maxDelayMs, this.restart.initialDelayMs * 2 ** (this.crashes.length - 1));
    // Requests made meanwhile wait for the restart (not a launch of their own).
    this.ready = new Promise<Reply<null>>((resolve) => {
      this.cancelRestart = () => resolve(failure('internal', 'The media process was stopped.'));
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        this.cancelRestart = null;
        resolve(this.disposed ? failure('internal', 'The media process was stopped.') : this.launch());
      }, delay);
    });
  }
}

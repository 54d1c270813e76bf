/**
 * The media process's runtime, independent of how it was started (entry.ts picks the control
 * port: Node's IPC channel or Electron's parentPort). It answers main's control messages, runs
 * media sessions of the registered kinds, and routes frames between them and the pages' channels.
 * Every failure goes back to main as a value; nothing a page sends can throw here.
 */
import { monotonicMs } from '../../shared/media-frames/clock';
import type { Reply } from '../../shared/contract/protocol';
import { WorkbenchFailure } from '../../shared/contract/errors';
import { FrameRouter, type FrameSink } from './frame-router';
import { startFrameServer, type FrameServer } from './frame-server';
import { failure, FromMediaSchema, ToMediaSchema, type FromMedia, type MediaConfigured, type MediaSessionStarted, type ToMedia } from './protocol';
import type { MediaSession, MediaSessionContext, SessionKinds } from './session-kinds';
import { MediaAudioDevices, type LoadAudioBackend } from './audio-devices';
import { createNaudiodonBackend } from '../audio/naudiodon-backend';

/** How the process talks to main; `ports` are transferred MessagePorts (Electron only). */
export interface ControlPort {
  send(message: FromMedia): void;
  onMessage(listener: (message: unknown, ports: readonly MessagePortLike[]) => void): void;
}

/** A page channel's port: Electron's MessagePortMain in the utility process (or a Node MessagePort in tests). */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  start(): void;
  close(): void;
}

interface Running {
  session: MediaSession | null;
  streams: number[];
  stopping: boolean;
}

export interface MediaProcessOptions {
  control: ControlPort;
  kinds: SessionKinds;
  now?: () => number;
  pid?: number;
  /** Called once main's `shutdown` has been carried out (the entry exits then). */
  onShutdown?: () => void;
  /** The native audio backend, loaded on first use; default naudiodon (tests and benchmarks give a paced one). */
  audioBackend?: LoadAudioBackend;
  /** How often the device list is polled for hot-plug once asked (ms). */
  devicePollMs?: number;
}

export class MediaProcess {
  private readonly router: FrameRouter;
  private readonly sessions = new Map<string, Running>();
  private frameServer: FrameServer | null = null;
  private readonly now: () => number;
  private readonly audio: MediaAudioDevices;
  private closed = false;

  constructor(private readonly options: MediaProcessOptions) {
    this.now = options.now ?? monotonicMs;
    this.router = new FrameRouter({ now: this.now, log: (line) => this.log(line) });
    this.audio = new MediaAudioDevices(options.audioBackend ?? createNaudiodonBackend, (devices) => this.send({ t: 'devices-changed', devices }), options.devicePollMs, () => this.sessions.size > 0);
    options.control.onMessage((message, ports) => void this.onControl(message, ports));
    this.send({ t: 'ready', pid: options.pid ?? 0 });
  }

  /** Serves a page channel over `sink` (tests and the Electron port adapter use this). */
  addChannel(id: string, sink: FrameSink) {
    return this.router.addChannel(id, sink);
  }

  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)));
    this.audio.dispose();
    this.router.dispose();
    await this.frameServer?.close();
  }

  private send(message: FromMedia): void {
    // A message that does not match the protocol is our bug: log it instead of sending it.
    const checked = FromMediaSchema.safeParse(message);
    if (!checked.success) {
      if (message.t !== 'log') this.log(`[media] refused to send a malformed ${message.t} message: ${checked.error.message}`);
      return;
    }
    this.options.control.send(checked.data);
  }

  private log(line: string): void {
    this.send({ t: 'log', line: line.slice(0, 4000) });
  }

  private async onControl(raw: unknown, ports: readonly MessagePortLike[]): Promise<void> {
    const parsed = ToMediaSchema.safeParse(raw);
    if (!parsed.success) {
      this.log(`[media] ignored a malformed control message: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const message = parsed.data;
    switch (message.t) {
      case 'ping': {
        const t1 = this.now();
        this.send({ t: 'pong', id: message.id, t0: message.t0, t1, t2: this.now() });
        return;
      }
      case 'port':
        if (ports[0]) this.addPort(message.channelId, ports[0]);
        else this.log(`[media] a port message for ${message.channelId} came without its port`);
        return;
      case 'shutdown':
        await this.dispose();
        this.options.onShutdown?.();
        return;
      default:
        this.send({ t: 'reply', id: message.id, reply: await this.answer(message) });
    }
  }

  private async answer(message: Exclude<ToMedia, { t: 'ping' | 'port' | 'shutdown' }>): Promise<Reply<unknown>> {
    try {
      if (message.t === 'configure') return { ok: true, value: await this.configure(message.config.frameServer) };
      if (message.t === 'start') return await this.start(message.sessionId, message.kind, message.options);
      if (message.t === 'control') return await this.control(message.sessionId, message.message);
      if (message.t === 'devices') return { ok: true, value: await this.audio.list() };
      await this.stop(message.sessionId);
      return { ok: true, value: null };
    } catch (err) {
      // An error a kind threw as a value (the service refused the key, say) goes back as it is.
      if (err instanceof WorkbenchFailure) {
        this.log(`[media] ${message.t} failed: ${err.error.code}: ${err.error.message}`);
        return { ok: false, error: err.error };
      }
      this.log(`[media] ${message.t} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return failure('internal', `The media process could not ${message.t === 'configure' ? 'start its frame channel' : message.t === 'devices' ? 'list the audio devices' : `${message.t} the media session`}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private async configure(wanted: { origins: string[]; port: number } | undefined): Promise<MediaConfigured> {
    if (!wanted) return {};
    if (!this.frameServer) {
      const start = (port: number) => startFrameServer({ port, log: (line) => this.log(line), onChannel: (id, sink) => this.router.addChannel(id, sink) });
      try {
        this.frameServer = await start(wanted.port);
      } catch (err) {
        if (wanted.port === 0) throw err;
        // The old port is taken: any port works, but pages loaded before must reload (their CSP names the old one).
        this.log(`[media] port ${wanted.port} is taken (${err instanceof Error ? err.message : String(err)}); listening on another: open pages must reload to use it`);
        this.frameServer = await start(0);
      }
    }
    this.frameServer.allowOrigins(wanted.origins);
    return { frameServer: { port: this.frameServer.port, token: this.frameServer.token } };
  }

  private addPort(channelId: string, port: MessagePortLike): void {
    const handle = this.router.addChannel(channelId, {
      write: (bytes) => port.postMessage(bytes),
      buffered: () => 0,
      close: () => port.close(),
    });
    port.on('message', (event) => {
      const data = event.data;
      if (data instanceof Uint8Array) handle.receive(data);
      else if (data instanceof ArrayBuffer) handle.receive(new Uint8Array(data));
    });
    port.on('close', () => handle.close());
    port.start();
  }

  private async start(sessionId: string, kindName: string, rawOptions: unknown): Promise<Reply<MediaSessionStarted>> {
    if (this.closed) return failure('internal', 'The media process is shutting down.');
    if (this.sessions.has(sessionId)) return failure('conflict', `A media session ${sessionId} is already running.`);
    const kind = this.options.kinds.get(kindName);
    if (!kind) return failure('invalid_input', `There is no media session kind "${kindName}" (known: ${this.options.kinds.names().join(', ') || 'none'}).`);
    const options = kind.options.safeParse(rawOptions ?? {});
    if (!options.success) {
      const issue = options.error.issues[0];
      return failure('invalid_input', `The ${kindName} session's options are invalid: ${issue ? `${issue.path.join('.') || 'options'}: ${issue.message}` : 'invalid'}.`);
    }
    const running: Running = { session: null, streams: [], stopping: false };
    this.sessions.set(sessionId, running);
    const streams: Record<string, number> = {};
    const ctx: MediaSessionContext = {
      sessionId,
      now: this.now,
      openOutput: (name) => {
        const id = this.router.allocateStream();
        streams[name] = id;
        running.streams.push(id);
        return { id, send: (frameKind, payload, timestamp) => this.router.send(id, frameKind, payload, timestamp), subscribers: () => this.router.subscribers(id) };
      },
      openInput: (name, onFrame) => {
        const id = this.router.allocateStream();
        streams[name] = id;
        running.streams.push(id);
        const { stats } = this.router.setInput(id, onFrame);
        return { id, stats };
      },
      event: (type, data) => this.send({ t: 'event', sessionId, type, at: this.now(), data: data ?? null }),
      end: (error) => {
        if (this.sessions.get(sessionId) !== running || running.stopping) return;
        this.release(sessionId, running);
        this.send({ t: 'ended', sessionId, error });
      },
      log: (line) => this.log(`[media ${kindName} ${sessionId}] ${line}`),
      audioBackend: () => this.audio.audioBackend(),
    };
    try {
      running.session = await kind.start(ctx, options.data);
    } catch (err) {
      this.release(sessionId, running);
      throw err;
    }
    return { ok: true, value: { sessionId, kind: kindName, streams } };
  }

  private async control(sessionId: string, message: unknown): Promise<Reply<unknown>> {
    const running = this.sessions.get(sessionId);
    if (!running?.session || running.stopping) return failure('not_found', `No media session ${sessionId} is running.`);
    if (!running.session.control) return failure('unsupported', 'This media session takes no control messages.');
    const reply = await running.session.control(message);
    return reply ?? { ok: true, value: null };
  }

  private async stop(sessionId: string): Promise<void> {
    const running = this.sessions.get(sessionId);
    if (!running || running.stopping) return;
    running.stopping = true;
    try {
      await running.session?.stop();
    } finally {
      this.release(sessionId, running);
    }
  }

  private release(sessionId: string, running: Running): void {
    if (this.sessions.get(sessionId) === running) this.sessions.delete(sessionId);
    for (const id of running.streams) this.router.release(id);
  }
}

/**
 * A service WebSocket that speaks JSON events (and binary audio): the one the voice families
 * (tts, stt, realtime) use, over connectWebSocket(). It bounds what one message may cost
 * (`maxFrameBytes`), masks the connection's secrets (and a client secret) in every frame it
 * captures and every message it hands on, captures both directions for the inspector and the
 * recorder with audio summarised, pings to find a dead peer, turns a close into an ApiError a
 * person can act on (socket-close.ts), applies back-pressure both ways (a send waits for the
 * socket to drain and gives up with `slow_consumer` instead of buffering without bound; incoming
 * reading pauses while the consumer is behind), and validates every message with the family's
 * zod schemas: an invalid message is an event to report, never a throw.
 *
 * It runs in the media process (plain Node, no Electron) as well as in main: it uses no app
 * singleton, only what it is given (the ApiClient, clocks, callbacks).
 */
import type { WebSocket } from 'ws';
import { formatBytes } from '../../shared/byte-size';
import type { CapturedRequest } from '../../shared/contract/runs';
import type { UnknownMessage, WsMessageParser } from '../../shared/wire/ws-message';
import type { ApiClient } from './client';
import type { ApiError } from './errors';
import type { SecretScrubber } from './secret-scrubber';
import { lazyAudioSummary, prepareMessage, summariseLongBase64, type AudioFormatHint, type CapturedFrame, type FrameBody, type FrameDirection } from './socket-capture';
import { closeError, type CloseCause } from './socket-close';
import { CapturedFrameLog, HELD_FRAME_MAX_MS } from './socket-frame-log';
import { KeepAlive } from './socket-keepalive';
import { SendQueue } from './socket-send-queue';
import { connectWebSocket, type WebSocketConnectOptions } from './websocket';
import { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket-limits';

export { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './socket-limits';
export type { AudioFormatHint, AudioSummary, CapturedFrame } from './socket-capture';

export interface EventSocketOptions<In> extends Omit<WebSocketConnectOptions, 'maxPayload' | 'onOpen'> {
  /** Validates each JSON message from the service (shared/wire parsers). */
  parse: WsMessageParser<In>;
  /** Secrets of this socket besides the connection's key (a realtime client secret): masked too. */
  secrets?: ReadonlyArray<string>;
  limits?: Partial<SocketLimits>;
  /** Formats of the audio each way, for the duration estimates of captured frames. */
  audio?: { in?: AudioFormatHint; out?: AudioFormatHint };
  /** Every frame both ways, masked and summarised (the inspector, the recorder). Must not throw. */
  onFrame?: (frame: CapturedFrame) => void;
  /**
   * Which frames onFrame reads (all unless given), by direction and message type (null: binary or
   * not JSON). A frame it does not read is neither summarised, masked for capture nor logged: its
   * `seq` still counts. A realtime call reads only its own control messages (main/media).
   */
  captures?: (direction: FrameDirection, type: string | null) => boolean;
  /** Monotonic ms clock (performance.now-like). */
  now?: () => number;
}

/** What the consumer reads, in order. `at` is the socket's clock when the frame arrived. */
export type SocketEvent<In> =
  | { kind: 'message'; message: In; at: number }
  | { kind: 'unknown'; message: UnknownMessage; at: number }
  | { kind: 'invalid'; error: ApiError; value: unknown; at: number }
  | { kind: 'binary'; bytes: Buffer; at: number };

export type SendResult = { ok: true } | { ok: false; reason: 'slow_consumer' | 'closed' | 'too_large'; error: ApiError };

/** How the socket ended: `error` null for a normal close. */
export interface SocketClosed {
  code: number;
  reason: string;
  error: ApiError | null;
}

export interface SocketStats {
  framesIn: number;
  framesOut: number;
  bytesIn: number;
  bytesOut: number;
  invalid: number;
  /** Sends refused because the service did not read fast enough. */
  slowConsumer: number;
  pingsSent: number;
  /** Times reading stopped because the consumer was behind. */
  readPauses: number;
}

export type EventSocketResult<In> = { ok: true; socket: EventSocket<In>; captured: CapturedRequest } | { ok: false; error: ApiError; captured: CapturedRequest };

/**
 * Opens `path` on the client's connection as an event socket. Never rejects: a refused handshake
 * is an error value (connectWebSocket), with this socket's secrets masked too.
 */
export async function openEventSocket<In>(client: ApiClient, path: string, opts: EventSocketOptions<In>): Promise<EventSocketResult<In>> {
  const limits: SocketLimits = { ...DEFAULT_SOCKET_LIMITS, ...opts.limits };
  const scrubber = client.scrubberWith(opts.secrets ?? []);
  const scrub: Scrub = { scrubber, value: (v) => scrubber.value(v), text: (t) => scrubber.text(t) };
  const host = client.webSocketTarget(path).host;
  let socket: EventSocket<In> | null = null;
  const result = await connectWebSocket(client, path, {
    ...opts,
    maxPayload: limits.maxFrameBytes,
    onOpen: (ws) => {
      socket = new EventSocket<In>(ws, host, limits, scrub, opts);
    },
  });
  const captured = scrub.value(result.captured) as CapturedRequest;
  if (!result.ok || !socket) {
    const error = result.ok ? { kind: 'protocol' as const, status: null, code: null, message: 'The WebSocket opened without a socket.', requestId: null } : result.error;
    return { ok: false, error: scrub.value(error) as ApiError, captured };
  }
  return { ok: true, socket, captured };
}

/** The socket's scrubber (the connection's key and the socket's own secrets). */
interface Scrub {
  scrubber: SecretScrubber;
  value: (v: unknown) => unknown;
  text: (t: string) => string;
}

export class EventSocket<In> implements AsyncIterable<SocketEvent<In>> {
  readonly stats: SocketStats = { framesIn: 0, framesOut: 0, bytesIn: 0, bytesOut: 0, invalid: 0, slowConsumer: 0, pingsSent: 0, readPauses: 0 };
  /** Resolves once, when the socket has closed (after the consumer may still read queued events). */
  readonly closed: Promise<SocketClosed>;
  private resolveClosed!: (c: SocketClosed) => void;
  private closedValue: SocketClosed | null = null;
  private cause: CloseCause | null = null;
  private readonly now: () => number;
  private seq = 0;
  // Incoming.
  private readonly queue: Array<{ event: SocketEvent<In>; bytes: number }> = [];
  private queuedBytes = 0;
  private paused = false;
  private reader: ((e: SocketEvent<In> | null) => void) | null = null;
  private readonly sending: SendQueue;
  private readonly keepAlive: KeepAlive;
  private onAbort: (() => void) | null = null;
  /** Masks keys spread over several frames before they reach onFrame (null when nothing captures). */
  private readonly frameLog: CapturedFrameLog | null;
  /** Lets held frames go when no next frame of their direction came in time (socket-frame-log.ts). */
  private heldTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: string,
    private readonly limits: SocketLimits,
    private readonly scrub: Scrub,
    private readonly opts: EventSocketOptions<In>,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.frameLog = opts.onFrame ? new CapturedFrameLog(scrub.scrubber) : null;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => this.receive(toBuffer(data), isBinary));
    this.sending = new SendQueue(ws, limits, () => this.open);
    this.keepAlive = new KeepAlive(ws, limits.keepAliveIntervalMs, limits.keepAliveTimeoutMs, {
      mayPing: () => this.open && !this.paused,
      onPing: () => this.stats.pingsSent++,
      onDead: (waitedMs) => (this.cause ??= { kind: 'dead_peer', waitedMs }),
    });
    ws.on('pong', () => this.keepAlive.alive());
    ws.on('ping', () => this.keepAlive.alive());
    ws.on('error', (e: Error & { code?: string }) => {
      if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') this.cause ??= { kind: 'too_large_in', limitBytes: limits.maxFrameBytes };
      else this.cause ??= { kind: 'socket_error', message: this.scrub.text(e.message) };
    });
    ws.on('close', (code: number, reason: Buffer) => this.finish(code, this.scrub.text(reason.toString('utf8'))));
    if (opts.signal) {
      this.onAbort = () => {
        this.cause ??= { kind: 'cancelled' };
        this.ws.close(1000, 'cancelled');
      };
      opts.signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** The socket's monotonic clock (ms): what `at` of events and captured frames is measured on. */
  clock(): number {
    return this.now();
  }

  /** Whether the socket can still send. */
  get open(): boolean {
    return this.closedValue === null && this.ws.readyState === this.ws.OPEN;
  }

  /** Bytes handed to the socket and not yet written to the network. */
  get bufferedBytes(): number {
    return this.sending.bufferedBytes;
  }

  /** Sends one JSON message (captured with secrets masked and audio summarised). */
  sendJson(message: object): Promise<SendResult> {
    const text = JSON.stringify(message);
    return this.enqueue(Buffer.byteLength(text), () => {
      const rawType = (message as { type?: unknown }).type;
      const type = typeof rawType === 'string' ? rawType : null;
      if (!this.reads('out', type)) return { frame: null, data: text, binary: false };
      // Audio fields are summarised when the frame is read (LazyAudioSummary), not here.
      const { forCapture } = prepareMessage(message, this.scrub.value, this.opts.audio?.out);
      return { frame: { kind: 'json', type, data: forCapture }, data: text, binary: false };
    });
  }

  /** Sends one binary frame (audio; captured as a summary). */
  sendBinary(bytes: Uint8Array): Promise<SendResult> {
    return this.enqueue(bytes.byteLength, () => ({ frame: this.reads('out', null) ? { kind: 'binary', audio: lazyAudioSummary(bytes, this.opts.audio?.out) } : null, data: bytes, binary: true }));
  }

  /** Whether onFrame reads a frame of this direction and type. */
  private reads(direction: FrameDirection, type: string | null): boolean {
    return this.opts.onFrame !== undefined && (this.opts.captures?.(direction, type) ?? true);
  }

  /** The next event, or null once the socket has closed and every event was read. */
  next(): Promise<SocketEvent<In> | null> {
    const item = this.queue.shift();
    if (item) {
      this.queuedBytes -= item.bytes;
      this.maybeResume();
      return Promise.resolve(item.event);
    }
    if (this.closedValue) return Promise.resolve(null);
    return new Promise((resolve) => (this.reader = resolve));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SocketEvent<In>> {
    for (;;) {
      const event = await this.next();
      if (event === null) return;
      yield event;
    }
  }

  /** Closes the socket (1000 unless given) and waits until it has closed. */
  async close(code = 1000, reason = ''): Promise<SocketClosed> {
    if (!this.closedValue) {
      this.cause ??= { kind: 'client_closed' };
      this.ws.close(code, reason);
      // A peer that never answers the close: ws would wait 30 s.
      const timer = setTimeout(() => this.ws.terminate(), Math.max(1000, this.limits.keepAliveTimeoutMs));
      timer.unref?.();
      void this.closed.then(() => clearTimeout(timer));
    }
    return this.closed;
  }

  /** Drops the connection at once (no close handshake). */
  terminate(): void {
    this.cause ??= { kind: 'client_closed' };
    this.ws.terminate();
  }

  /** `build` makes the frame to capture (null when nothing captures) and the data, only once the frame is sent. */
  private enqueue(size: number, build: () => { frame: FrameBody | null; data: string | Uint8Array; binary: boolean }): Promise<SendResult> {
    if (!this.open) return Promise.resolve(this.refuse('closed', `The connection to ${this.host} is closed; nothing more can be sent.`));
    if (size > this.limits.maxFrameBytes) {
      return Promise.resolve(this.refuse('too_large', `A message of ${formatBytes(size)} is more than the ${formatBytes(this.limits.maxFrameBytes)} the workbench sends in one WebSocket message; send it in smaller pieces.`));
    }
    if (this.sending.full(size)) return Promise.resolve(this.slow());
    return this.sending.enqueue(size, (drained): SendResult => {
      if (!this.open) return this.refuse('closed', `The connection to ${this.host} closed before this message could be sent.`);
      if (!drained) return this.slow();
      const { frame, data, binary } = build();
      this.sending.write(data, binary, size);
      this.stats.framesOut++;
      this.stats.bytesOut += size;
      if (frame) this.capture('out', size, frame);
      else this.seq++;
      return { ok: true };
    });
  }

  private slow(): SendResult {
    this.stats.slowConsumer++;
    return this.refuse(
      'slow_consumer',
      `${this.host} is not reading fast enough: more than ${formatBytes(this.limits.sendHighWaterBytes)} are still waiting to be sent, so this message was not sent. The service or the network is behind.`,
    );
  }

  private refuse(reason: 'slow_consumer' | 'closed' | 'too_large', message: string): SendResult {
    return { ok: false, reason, error: { kind: reason === 'closed' ? 'network' : 'protocol', status: null, code: reason, message, requestId: null } };
  }

  private receive(data: Buffer, isBinary: boolean): void {
    this.keepAlive.alive();
    const at = this.now();
    this.stats.framesIn++;
    this.stats.bytesIn += data.byteLength;
    if (isBinary) {
      if (this.reads('in', null)) this.capture('in', data.byteLength, { kind: 'binary', audio: lazyAudioSummary(data, this.opts.audio?.in) }, at);
      else this.seq++;
      this.push({ kind: 'binary', bytes: data, at }, data.byteLength);
      return;
    }
    const text = data.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      const shown = this.scrub.text(text);
      const issue = 'the message is not JSON';
      if (this.reads('in', null)) this.capture('in', data.byteLength, { kind: 'text', text: summariseLongBase64(shown), issue }, at);
      else this.seq++;
      this.invalid(`${this.host} sent a message that is not JSON: ${shown.slice(0, 120)}`, shown, at, data.byteLength);
      return;
    }
    const rawType = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
    const capturing = this.reads('in', typeof rawType === 'string' ? rawType : null);
    const { forConsumer, forCapture } = prepareMessage(value, this.scrub.value, this.opts.audio?.in, capturing);
    const parsed = this.opts.parse(forConsumer);
    if (capturing) {
      const type = forConsumer !== null && typeof forConsumer === 'object' ? (forConsumer as { type?: unknown }).type : undefined;
      const frame = { kind: 'json' as const, type: typeof type === 'string' ? type : null, data: forCapture };
      this.capture('in', data.byteLength, parsed.kind === 'invalid' ? { ...frame, issue: parsed.issue } : frame, at);
    } else this.seq++;
    if (parsed.kind === 'invalid') {
      this.invalid(`${this.host} sent a message the workbench does not understand (${parsed.issue}); it was skipped.`, forCapture ?? forConsumer, at, data.byteLength);
      return;
    }
    this.push({ kind: parsed.kind, message: parsed.message, at } as SocketEvent<In>, data.byteLength);
  }

  private invalid(message: string, value: unknown, at: number, bytes: number): void {
    this.stats.invalid++;
    this.push({ kind: 'invalid', error: { kind: 'protocol', status: null, code: 'invalid_message', message, requestId: null }, value, at }, bytes);
  }

  private push(event: SocketEvent<In>, bytes: number): void {
    if (this.reader) {
      const r = this.reader;
      this.reader = null;
      r(event);
      return;
    }
    this.queue.push({ event, bytes });
    this.queuedBytes += bytes;
    // The consumer is behind: stop reading the socket (TCP pushes back on the service) until it catches up.
    if (!this.paused && (this.queue.length >= this.limits.inboundQueueMessages || this.queuedBytes >= this.limits.inboundQueueBytes)) {
      this.paused = true;
      this.stats.readPauses++;
      this.ws.pause();
      this.keepAlive.disarm();
    }
  }

  private maybeResume(): void {
    if (this.paused && this.queue.length <= this.limits.inboundQueueMessages / 2 && this.queuedBytes <= this.limits.inboundQueueBytes / 2) {
      this.paused = false;
      this.ws.resume();
    }
  }

  private capture(direction: FrameDirection, bytes: number, frame: FrameBody, at = this.now()): void {
    if (!this.opts.onFrame) {
      this.seq++;
      return;
    }
    const onFrame = this.opts.onFrame;
    const log = this.frameLog!;
    for (const settled of log.push({ direction, at, seq: this.seq++, bytes, ...frame } as CapturedFrame)) onFrame(settled);
    if (log.holding() && !this.heldTimer) {
      this.heldTimer = setTimeout(() => {
        this.heldTimer = null;
        if (!this.closedValue) for (const settled of log.flushHeld()) onFrame(settled);
      }, HELD_FRAME_MAX_MS);
      this.heldTimer.unref?.();
    }
  }

  private finish(code: number, reason: string): void {
    if (this.closedValue) return;
    this.keepAlive.stop();
    if (this.heldTimer) clearTimeout(this.heldTimer);
    this.heldTimer = null;
    if (this.onAbort) this.opts.signal?.removeEventListener('abort', this.onAbort);
    if (this.frameLog && this.opts.onFrame) for (const settled of this.frameLog.end()) this.opts.onFrame(settled);
    const error = closeError({ code, reason, host: this.host, cause: this.cause });
    this.closedValue = { code, reason, error: error ? (this.scrub.value(error) as ApiError) : null };
    this.sending.release();
    if (this.reader && this.queue.length === 0) {
      const r = this.reader;
      this.reader = null;
      r(null);
    }
    this.resolveClosed(this.closedValue);
  }
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

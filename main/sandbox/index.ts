/**
 * The sandbox: a local, deterministic implementation of the service on loopback. startSandbox()
 * wires the key ring, the shared state and the route modules into the HTTP server and listens.
 */
import type { AddressInfo } from 'node:net';
import { FILE_LIMITS } from '../../shared/wire/files';
import { createKeyRing, type KeyRing, type KeySpec } from './auth';
import { PrefixCache } from './chat/prefix-cache';
import { createClock } from './clock';
import { DeferredStore } from './deferred';
import type { SandboxEnv } from './env';
import { FaultBook } from './faults';
import { FileStore } from './files/store';
import { CodecPool } from './media/codec-pool';
import { MediaStore } from './media/store';
import { imagesRoutes } from './routes/images';
import { controlRoutes } from './routes/control';
import { rememberPort, rememberedPort } from './state/port-file';
import { securePrivateFolder } from './state/key-file';
import { lockStateFolder, type StateLock } from './state/lock-file';
import { filesRoutes } from './routes/files';
import { chatRoutes } from './routes/chat';
import { completionsRoutes } from './routes/completions';
import { messagesRoutes } from './routes/messages';
import { responsesRoutes } from './routes/responses';
import { CompactionCodec } from './responses/compaction';
import { ResponseStore } from './responses/store';
import { modelRoutes } from './routes/models';
import { videosRoutes } from './routes/videos';
import { SttService, sttRoutes, sttSocketRoutes } from './routes/stt';
import { ttsRoutes, ttsSocketRoutes } from './routes/tts';
import { TtsService } from './tts/service';
import { customProfile } from './tts/voice-profiles';
import { AudioDecoder } from './audio/decode';
import { customVoiceRoutes } from './routes/custom-voices';
import { CustomVoiceStore } from './voices/store';
import { RealtimeFamily, type RealtimeOptions } from './realtime/routes';
import { builtInProfile } from './tts/voice-profiles';
import { safeLog } from './log-line';
import { callControlRoutes, callServiceRoutes } from './sip/call-routes';
import type { CallDirectory } from './sip/call-link';
import { SipService, type SipOptions } from './sip/service';
import { createSandboxHttpServer } from './server';
import { openSandboxState, stateCompactionSecret, stateCustomVoicesDir, stateFilesDir, stateVideosDir, type SandboxState } from './state/persistence';
import { VideoService } from './video/service';

export interface SandboxOptions {
  /**
   * Exactly this port (0 = a random free one); it being taken is an error. Undefined: the
   * `preferredPort`, else with a `stateDir` the port of the last launch (kept in
   * `<stateDir>/port`), else a random one.
   */
  port?: number;
  /** Tried first when `port` is undefined; when it is taken, any free port (see `preferredPort` of the server). */
  preferredPort?: number;
  /** Default '127.0.0.1'; anything that is not loopback is refused. */
  host?: string;
  /** Accepted API keys; default one generated key 'sk-sandbox-<random>' for team 'team-sandbox'. */
  keys?: KeySpec[];
  /** Pacing between streamed tokens; default 20 (about 50 tokens/s). Tests pass 0. */
  tokenDelayMs?: number;
  /** How long a deferred completion stays pending; default 1500. */
  deferredDelayMs?: number;
  /** Clock in ms (tests move it; `POST /sandbox/clock/advance` moves it forward). */
  now?: () => number;
  /** Where uploaded files' bytes go; default a fresh temporary directory, removed on close. */
  filesDir?: string;
  /**
   * A folder that keeps the sandbox's state across restarts (files with their bytes in
   * `<stateDir>/files/`, deferred completions, Idempotency-Keys, stored responses, the clock's
   * advance, the compaction secret). Default none: everything is gone on close. Excludes `filesDir`.
   */
  stateDir?: string;
  /** Upload size limit (413 above it); default FILE_LIMITS.maxFileBytes (50 MB, as wire-notes says). */
  maxFileBytes?: number;
  /** The control API under /sandbox/ (same auth); default on for loopback hosts, off otherwise. */
  controlApi?: boolean;
  /** Bytes of made videos kept in memory (the rest is read back from disk); default 256 MiB. */
  videoMemoryBytes?: number;
  /**
   * A request body (an upload) that sends no byte for this long is answered 408 and closed;
   * default 60 s. There is no limit on a body's total time, only on its stalls.
   */
  bodyStallMs?: number;
  /** The realtime socket: audio pacing, ping interval, the SIP calls it can join (realtime/routes.ts). */
  realtime?: RealtimeOptions;
  log?: (line: string) => void;
  /** SIP: webhook retry delays, ring timeout, rejoin grace (sip/service.ts). */
  sip?: SipOptions;
}

export interface SandboxServer {
  /** 'http://127.0.0.1:<port>' (no /v1; clients append /v1/...). */
  readonly url: string;
  readonly port: number;
  /** The port it tried first (preferred or last launch's), or null; differs from `port` when that one was taken. */
  readonly preferredPort: number | null;
  readonly keys: string[];
  /** Whether the control API under /sandbox/ is served. */
  readonly controlApi: boolean;
  /** The directory holding uploaded files' bytes. */
  readonly filesDir: string;
  /** The file store, for tests and benchmarks that seed many files without going through HTTP. */
  readonly files: FileStore;
  /** The state folder, when the sandbox keeps its state across restarts. */
  readonly stateDir: string | null;
  /** Simulated SIP calls by id and team (what `/v1/realtime?call_id=` joins; tests join them directly). */
  readonly calls: CallDirectory;
  /** Closes the server and ends open streams. */
  close(): Promise<void>;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|::1|\[::1\])$/i;

/** Starts the sandbox and resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) {
    throw new Error(`The sandbox only listens on loopback addresses (127.0.0.1, ::1, localhost); refusing "${host}".`);
  }
  const { stateDir } = options;
  if (stateDir !== undefined && options.filesDir !== undefined) {
    throw new Error('Give the sandbox a stateDir or a filesDir, not both: with a stateDir, files live in <stateDir>/files.');
  }
  // Log lines can carry client text (a file name, a body): escaped so none forges another line.
  const log = options.log ? safeLog(options.log) : () => undefined;
  const keyRing = createKeyRing(options.keys);
  // Before anything reads or writes the folder: a second sandbox on it must not touch it at all.
  let lock: StateLock | null = null;
  if (stateDir !== undefined) {
    securePrivateFolder(stateDir);
    lock = lockStateFolder(stateDir, log);
  }
  try {
    return await startLocked(options, host, log, keyRing, lock);
  } catch (err) {
    lock?.release();
    throw err;
  }
}

async function startLocked(options: SandboxOptions, host: string, log: (line: string) => void, keyRing: KeyRing, lock: StateLock | null): Promise<SandboxServer> {
  const { stateDir } = options;
  const clock = createClock(options.now);
  const files = stateDir === undefined ? new FileStore({ dir: options.filesDir }) : new FileStore({ dir: stateFilesDir(stateDir), keepOnClose: true });
  const env: SandboxEnv = {
    clock,
    tokenDelayMs: options.tokenDelayMs ?? 20,
    deferredDelayMs: options.deferredDelayMs ?? 1500,
    deferred: new DeferredStore(),
    prefixCache: new PrefixCache(),
    responses: new ResponseStore(),
    compaction: new CompactionCodec(stateDir === undefined ? undefined : stateCompactionSecret(stateDir, log)),
    files,
    maxFileBytes: options.maxFileBytes ?? FILE_LIMITS.maxFileBytes,
    videos: new VideoService({
      clock,
      files,
      log,
      mediaDir: stateDir === undefined ? undefined : stateVideosDir(stateDir),
      maxMemoryBytes: options.videoMemoryBytes,
    }),
    media: new MediaStore(),
    codecs: new CodecPool(log),
    audioDecoder: new AudioDecoder(),
    log,
  };
  const customVoices = new CustomVoiceStore(stateDir === undefined ? null : stateCustomVoicesDir(stateDir));
  const tts = new TtsService((team, id) => {
    const traits = customVoices.voiceTraits(team, id);
    return traits && customProfile(traits.medianHz, traits.gender);
  });
  const sip = new SipService({ clock, log, tts, files: env.files, decoder: env.audioDecoder, options: options.sip });
  const state: SandboxState | null =
    stateDir === undefined
      ? null
      : openSandboxState({ dir: stateDir, clock, deferred: env.deferred, responses: env.responses, files: env.files, videos: env.videos.jobs, customVoices, phoneNumbers: sip.numbers, log });
  env.videos.resume();
  const controlApi = options.controlApi ?? LOOPBACK.test(host);
  const faults = new FaultBook();
  const stt = new SttService(env.audioDecoder);
  const realtime = new RealtimeFamily({ clock, tts, tokenDelayMs: env.tokenDelayMs, log, options: { calls: sip, ...options.realtime }, voiceOk: (team) => (v) => builtInProfile(v) !== undefined || customVoices.get(team, v) !== undefined });
  const http = createSandboxHttpServer({
    routes: [
      ...modelRoutes(),
      ...chatRoutes(env),
      ...messagesRoutes(env),
      ...completionsRoutes(env),
      ...responsesRoutes(env),
      ...filesRoutes(env),
      ...videosRoutes(env),
      ...imagesRoutes(env),
      ...sttRoutes(env, stt),
      ...ttsRoutes(tts),
      ...customVoiceRoutes({ store: customVoices, decoder: env.audioDecoder, clock, maxBytes: env.maxFileBytes }),
      ...realtime.routes(),
      ...sip.routes(),
      ...callServiceRoutes(sip),
      ...(controlApi ? [...controlRoutes(clock), ...callControlRoutes(sip)] : []),
    ],
    // WebSocket endpoints (socket-route.ts): one spread per family, as for `routes`.
    socketRoutes: [...sttSocketRoutes(log), ...ttsSocketRoutes(tts, log), ...realtime.socketRoutes()],
    keyRing,
    faults,
    clock,
    log,
    bodyStallMs: options.bodyStallMs,
  });
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      http.server.once('error', reject);
      http.server.listen(at, host.replace(/^\[|\]$/g, ''), () => {
        http.server.removeAllListeners('error');
        resolve();
      });
    });
  // With no exact port asked for: the preferred one, else the last launch's (see port-file.ts).
  const lastUsed = options.port === undefined && options.preferredPort === undefined && stateDir !== undefined ? rememberedPort(stateDir) : 0;
  const preferred = options.port === undefined ? (options.preferredPort ?? lastUsed) : 0;
  try {
    await listen(options.port ?? preferred).catch((err: NodeJS.ErrnoException) => {
      if (!preferred || (err.code !== 'EADDRINUSE' && err.code !== 'EACCES')) throw err;
      log(`sandbox: port ${preferred} (${lastUsed ? 'used last time' : 'preferred'}) is taken; listening on another`);
      return listen(0);
    });
  } catch (err) {
    state?.close();
    await env.videos.close();
    env.files.close();
    await env.codecs.close();
    throw err;
  }
  const port = (http.server.address() as AddressInfo).port;
  if (stateDir !== undefined && options.port === undefined) rememberPort(stateDir, port, log);
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  log(`sandbox listening on http://${urlHost}:${port}`);
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    preferredPort: preferred || null,
    keys: keyRing.keys,
    controlApi,
    filesDir: env.files.dir,
    files: env.files,
    stateDir: stateDir ?? null,
    calls: sip,
    close() {
      closing ??= http.close().then(async () => {
        state?.close();
        await env.videos.close();
        env.deferred.clear();
        env.prefixCache.clear();
        env.responses.clear();
        env.files.close();
        env.media.clear();
        env.audioDecoder.dispose();
        customVoices.clear();
        faults.clear();
        await env.codecs.close();
        stt.close();
        realtime.close();
        sip.close();
        lock?.release();
      });
      return closing;
    },
  };
}

export type { KeySpec } from './auth';
export { loadOrCreateSandboxKey, sandboxKeyFile } from './state/key-file';

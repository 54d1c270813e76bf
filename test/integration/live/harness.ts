/**
 * A whole app (browser mode's composition: createApp with its embedded sandbox) with a real media
 * process, for the live transcription tests: speech from eSpeak NG resampled to 16 kHz, a page's
 * microphone in a child process (mic-client.ts), and a fake window attached to the live session.
 * startRealtimeHarness() is the same app for the realtime call tests, with the ways they reach the
 * sandbox: its key, a call started with no devices, a profile, a TCP proxy that drops or cuts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp, type App } from '../../../main/app';
import { createFileKeyStore } from '../../../main/store/key-file';
import type { LiveAttachChunk } from '../../../shared/contract/live';
import { parseWav } from '../../../shared/audio/wav';
import { Resampler } from '../../../shared/audio/resampler';
import { mixToMono } from '../../../shared/audio/pcm';
import { applyTranscriptionEvent, type LiveTranscriptionEvent, type LiveTranscriptionSnapshot } from '../../../shared/live-transcription';
import { forkLauncher } from '../../../main/media/fork-launcher';
import { MediaPlane } from '../../../main/media/media-plane';
import { PAGE_ORIGIN } from '../media/harness';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../../..');

type ESpeak = (options: { arguments: string[] }) => Promise<{ FS: { readFile(path: string): Uint8Array } }>;

/** eSpeak NG compiled to WebAssembly (npm), loaded by name: it ships no type declarations. */
async function loadEspeak(): Promise<ESpeak> {
  const name = 'espeak-ng';
  return ((await import(name)) as { default: ESpeak }).default;
}

/** Speech as raw PCM16 mono at `rate`, with `silenceMs` of silence after each sentence. */
export async function speechPcm(sentences: string[], rate = 16_000, silenceMs = 1200): Promise<Buffer> {
  const parts: Buffer[] = [];
  const ESpeakNg = await loadEspeak();
  for (const text of sentences) {
    const e = await ESpeakNg({ arguments: ['-v', 'en-us', '-w', 'out.wav', text] });
    const wav = parseWav(e.FS.readFile('out.wav'));
    if (!wav.ok) throw new Error(wav.error.message);
    const mono = wav.value.channels === 1 ? wav.value.samples : mixToMono(wav.value.samples, wav.value.channels);
    const resampler = new Resampler(wav.value.sampleRate, rate, 1);
    const a = resampler.push(mono);
    const b = resampler.flush();
    parts.push(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    parts.push(Buffer.alloc(Math.round((rate * silenceMs) / 1000) * 2));
  }
  return Buffer.concat(parts);
}

/** `mediaEnv`: the media process's environment (test/audio gives it an ALSA file device and its pacing hook). */
export async function startLiveApp(options: { mediaEnv?: NodeJS.ProcessEnv; /** Extra node flags for the media process (benchmarks: --trace-gc). */ mediaExecArgv?: string[] } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'live-stt-'));
  const logs: string[] = [];
  // Not the media tests' startPlane(): it keeps every plane event, and a long session's audio events would be the test's memory.
  const log = (line: string) => logs.push(line);
  const plane = new MediaPlane({
    launch: forkLauncher({ entry: resolve(ROOT, 'main/media/entry.ts'), execArgv: ['--import', 'tsx', ...(options.mediaExecArgv ?? [])], log, ...(options.mediaEnv ? { env: options.mediaEnv } : {}) }),
    log,
    transport: { kind: 'websocket', origins: () => [PAGE_ORIGIN] },
  });
  const up = await plane.start();
  if (!up.ok) throw new Error(JSON.stringify(up));
  const app: App = await createApp({
    dataDir,
    shell: 'browser',
    keyStore: createFileKeyStore(join(dataDir, 'keys.json')),
    emit: () => undefined,
    log: (line) => logs.push(line),
    version: 'test',
    mediaPlane: plane,
  });
  const close = async () => {
    await app.dispose();
    await plane.dispose();
    // Every run made one of these and left it (hundreds in /tmp); nothing reads it after close.
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, plane, dataDir, logs, close };
}

/** A handler call's context (the IPC host's, for a test that calls handlers directly). */
export const CTX = { sessionId: 'test', signal: new AbortController().signal };

export type RealtimeHarness = Awaited<ReturnType<typeof startRealtimeHarness>>;

/**
 * The app of startLiveApp() for the realtime call tests, with what each of them did for itself:
 * the embedded sandbox's port and key, a call started (no microphone, no output unless `input`
 * says), a connection profile to the sandbox (its key unless another is given), and a TCP proxy in
 * front of the sandbox with a profile through it.
 */
export async function startRealtimeHarness(options: Parameters<typeof startLiveApp>[0] = {}) {
  const env = await startLiveApp(options);
  const sandbox = async () => (await env.app.handlers.connections.list({}, CTX)).sandbox;
  const startCall = (input: Record<string, unknown> = {}, origin: 'window' | 'main' = 'window') =>
    env.app.live.start('realtime', { microphone: { kind: 'none' }, output: { kind: 'none' }, ...input }, { origin });
  /** A profile named `name` to 127.0.0.1:`port` (the sandbox's) with `apiKey` (the sandbox's); its id. */
  const profile = async (name: string, to: { port?: number; apiKey?: string } = {}) => {
    const sb = await sandbox();
    return (await env.app.handlers.connections.save({ name, baseUrl: `http://127.0.0.1:${to.port ?? sb.port}`, apiKey: to.apiKey ?? sb.key }, CTX)).id;
  };
  /** A TCP proxy in front of the sandbox and a profile (`name`) through it; close() it when done. */
  const proxy = async (name: string, proxyOptions: ProxyOptions = {}) => {
    const opened = await sandboxProxy((await sandbox()).port, proxyOptions);
    try {
      return { ...opened, profileId: await profile(name, { port: opened.port }) };
    } catch (error) {
      opened.close();
      throw error;
    }
  };
  return { ...env, sandbox, startCall, profile, proxy };
}

interface ProxyOptions {
  /**
   * Once a chunk holding this text has gone through to the client, destroy both sides (the client
   * reads it, then finds the socket closed). Server frames are unmasked text, so an event type is
   * visible in the bytes; the tail of the previous chunk is kept in case it straddles two reads.
   */
  cutAfter?: string;
}

/** A TCP proxy to the sandbox's `port`: drop() destroying its sockets is the network dropping. */
async function sandboxProxy(port: number, options: ProxyOptions) {
  const sockets = new Set<Socket>();
  let cuts = 0;
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('error', () => undefined);
      sock.on('close', () => sockets.delete(sock));
    }
    const cutAfter = options.cutAfter;
    if (cutAfter === undefined) return void client.pipe(upstream).pipe(client);
    client.pipe(upstream);
    let tail = '';
    upstream.on('data', (chunk: Buffer) => {
      const seen = tail + chunk.toString('latin1');
      tail = seen.slice(-Math.max(32, cutAfter.length));
      client.write(chunk, () => {
        if (!seen.includes(cutAfter)) return;
        cuts++;
        client.destroy();
        upstream.destroy();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const drop = () => {
    for (const sock of sockets) sock.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    drop,
    cuts: () => cuts,
    close() {
      drop();
      server.close();
    },
  };
}

/** A fake window: attaches, folds chunks onto the snapshot as the page's store does. */
export async function attachWindow(app: App, id: string, options: { keepChunks?: boolean } = {}) {
  const keep = options.keepChunks ?? true;
  const chunks: LiveAttachChunk[] = [];
  let state: LiveTranscriptionSnapshot | null = null;
  let lastSeq = -1;
  let gaps = 0;
  const waiters: Array<() => void> = [];
  let ended = false;
  const attachment = await app.live.attach(id, {
    deliver(chunk) {
      // A long benchmark keeps only the folded state (holding every chunk would be the test's memory, not the app's).
      if (keep) chunks.push(chunk);
      if (chunk.type === 'snapshot') {
        state = structuredClone(chunk.snapshot as LiveTranscriptionSnapshot);
        lastSeq = chunk.seq;
      } else if (chunk.type === 'event' && state) {
        if (chunk.seq !== lastSeq + 1) gaps++;
        lastSeq = chunk.seq;
        applyTranscriptionEvent(state, chunk.event as LiveTranscriptionEvent);
      }
      for (const w of waiters.splice(0)) w();
    },
    ended() {
      ended = true;
      for (const w of waiters.splice(0)) w();
    },
  });
  const until = (check: () => boolean): Promise<void> =>
    new Promise((done) => {
      const look = () => (check() ? done() : waiters.push(look));
      look();
    });
  return {
    attachment,
    chunks,
    state: () => state!,
    gaps: () => gaps,
    ended: () => ended,
    until,
    events: () => chunks.flatMap((c) => (c.type === 'event' ? [c.event as LiveTranscriptionEvent] : [])),
  };
}

export interface MicReport {
  sent: number;
  frames: number;
  stats: { queue: { pushed: number; taken: number; droppedFull: number; droppedStale: number; held: number } };
}

/** Runs mic-client.ts (a page's microphone in its own process) over `pcm` (interleaved when `channels` > 1: a 20 ms frame holds every channel's samples). */
export function runMicClient(args: { url: string; token: string; mic: number; pcm: Buffer; rate?: number; channels?: number; intervalMs: number; startFrame?: number; totalFrames?: number }, dir: string): Promise<MicReport> {
  const file = join(dir, `mic-${Date.now()}-${Math.random().toString(36).slice(2)}.pcm`);
  writeFileSync(file, args.pcm);
  return new Promise((resolveReport, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', resolve(HERE, 'mic-client.ts'), args.url, args.token, PAGE_ORIGIN, String(args.mic), file, String((args.rate ?? 16_000) * (args.channels ?? 1)), String(args.intervalMs), String(args.startFrame ?? 0), ...(args.totalFrames ? [String(args.totalFrames)] : [])],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolveReport(JSON.parse(line) as MicReport);
      else reject(new Error(`mic client exited ${code}: ${err || out}`));
    });
  });
}

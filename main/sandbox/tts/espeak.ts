/**
 * eSpeak NG (the `espeak-ng` npm package: its command line compiled to WebAssembly), kept in ONE
 * worker thread (espeak-worker.ts), so synthesis never blocks the event loop of the process the
 * sandbox lives in (the app's main process). The package alone offers "instantiate and run main()
 * once", ~0.5-0.8 s per call here; the worker instantiates once and restores a memory snapshot per
 * call instead. Measured on this machine (2 cores, shared): the first call ~1-1.5 s (start), then a
 * short phrase ~40-120 ms and a sentence ~90-300 ms. The worker also encodes MP3 (mp3Stream).
 *
 * Requests are answered in order. The worker stops after 30 s with nothing to do (an unref'd
 * worker still kept a process alive here) and starts again on demand; if it dies, pending calls
 * fail with its error and the next call starts a new one. An MP3 stream whose utterance waits
 * longer than that for text (a WebSocket client pausing mid-utterance) restarts its encoder: the
 * bytes stay a valid MP3 stream, with one more encoder delay (~50 ms) at that seam.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { decodeWav } from '../audio/decode';
import { unpackedPath } from '../media/unpacked-path';
import { espeakWorkerMain, type EspeakReply, type EspeakRequest, type EspeakWorkerData } from './espeak-worker';

/** eSpeak writes 22,050 Hz mono 16-bit WAV. */
export const ESPEAK_RATE = 22_050;

export interface EspeakArgs {
  /** `-v`: a language voice and optional `+variant`, e.g. `en-us+f3`. */
  voice: string;
  /** `-p` 0-99 (default 50). */
  pitch: number;
  /** `-s` words per minute (80-450; default 175). */
  wpm: number;
  /** `-a` 0-200 (default 100). */
  amplitude?: number;
  /** The text is SSML (`-m`). */
  ssml?: boolean;
  text: string;
}

function workerData(): EspeakWorkerData {
  // Resolved from this module so the same code runs from sources (tsx, vitest) and the bundle.
  const require = createRequire(import.meta.url);
  const modulePath = unpackedPath(require.resolve('espeak-ng'));
  // `require` resolves lamejs's IIFE build; its ES module sits beside it.
  const lamePath = unpackedPath(require.resolve('@breezystack/lamejs').replace(/lamejs\.iife\.js$/, 'lamejs.js'));
  return { modulePath, wasmPath: modulePath.replace(/espeak-ng\.js$/, 'espeak-ng.wasm'), lamePath };
}

export class EspeakEngine {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (bytes: Uint8Array) => void; reject: (err: Error) => void }>();
  private nextStream = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  /** @param idleMs the worker stops after this long with nothing to do (it starts again on demand). */
  constructor(private readonly idleMs = 30_000) {}
  private nextId = 1;
  /** How many workers were started (tests check the engine is kept). */
  starts = 0;
  calls = 0;

  private spawn(): Worker {
    if (this.worker) return this.worker;
    this.starts++;
    // tsx (esbuild keepNames) wraps functions in __name(fn, "name"); the worker has no such helper.
    const source = `'use strict';\nvar __name = (fn) => fn;\n(${espeakWorkerMain.toString()})(require, (url) => import(url));`;
    const worker = new Worker(source, { eval: true, workerData: workerData() });
    worker.unref();
    worker.on('message', (reply: EspeakReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.armIdle();
      if ('error' in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve('wav' in reply ? reply.wav : reply.bytes);
    });
    const fail = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const w of this.pending.values()) w.reject(new Error(`The eSpeak NG worker stopped: ${err.message}`));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Synthesises one chunk: mono float samples at ESPEAK_RATE. */
  async synthesize(args: EspeakArgs): Promise<Float32Array> {
    const argv = ['-v', args.voice, '-p', String(Math.round(args.pitch)), '-s', String(Math.round(args.wpm))];
    if (args.amplitude !== undefined) argv.push('-a', String(Math.round(args.amplitude)));
    if (args.ssml) argv.push('-m');
    // A leading '-' would be read as an option: a space keeps it text.
    argv.push(args.text.startsWith('-') ? ` ${args.text}` : args.text);
    this.calls++;
    const wav = await this.request({ id: 0, op: 'speak', argv });
    const decoded = decodeWav(wav);
    if (!decoded.ok) throw new Error(`eSpeak NG wrote an unreadable WAV: ${decoded.error.message}`);
    return decoded.audio.channels[0];
  }

  /** An idle worker is stopped: a process with nothing else to do can exit, and its memory is freed. */
  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size === 0) void this.close();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private request(message: EspeakRequest, transfer: ArrayBuffer[] = []): Promise<Uint8Array> {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    const id = this.nextId++;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.spawn().postMessage({ ...message, id }, transfer);
    });
  }

  /** An MP3 stream encoded in the worker; `end()` must be called (it frees the worker's encoder). */
  mp3Stream(sampleRate: number, kbps: number): { write(samples: Int16Array): Promise<Uint8Array>; end(): Promise<Uint8Array> } {
    const stream = this.nextStream++;
    return {
      write: (samples) => this.request({ id: 0, op: 'mp3', stream, sampleRate, kbps, samples, end: false }, [samples.buffer as ArrayBuffer]),
      end: () => this.request({ id: 0, op: 'mp3', stream, sampleRate, kbps, samples: null, end: true }),
    };
  }

  /** Stops the worker (pending calls fail). */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

let shared: EspeakEngine | null = null;

/** One engine per process: it keeps no state between calls (each restores the snapshot), so sandboxes share it. */
export function sharedEspeakEngine(): EspeakEngine {
  shared ??= new EspeakEngine();
  return shared;
}

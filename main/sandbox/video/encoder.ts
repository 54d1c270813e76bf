/**
 * Encodes videos in one worker thread, a queue of jobs in order. The sandbox runs inside the
 * app's main process, so nothing here may hold the event loop: drawing and encoding (seconds of
 * WebAssembly x264 per video) happen in the worker; this side only posts plans and receives bytes.
 *
 * The worker's code is sent as source text (`new Worker(code, {eval: true})`) built from the
 * functions of frames.ts and encoder-worker.ts, and loads `h264-mp4-encoder`, `jpeg-js` and
 * `pngjs` by absolute paths resolved here. That works the same from the TypeScript sources (tsx,
 * vitest) and from the bundled app (out/main), with no separate worker file to build or find.
 * The worker starts on the first job and stops after `idleMs` without work (its WebAssembly
 * memory is returned), and on close().
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { unpackedPath } from '../media/unpacked-path';
import { FRAME_FUNCTIONS, fitCover, renderFrame, type ScenePlan } from './frames';
import { videoWorkerMain, WORKER_FUNCTIONS, type EncodeReply, type EncodeRequest, type PictureInput, type WorkerModules } from './encoder-worker';

export interface EncodeJob {
  plan: ScenePlan;
  background: PictureInput | null;
  tiles: PictureInput[];
}

export interface EncoderOptions {
  /** Stop the idle worker after this long; default 30 s. */
  idleMs?: number;
  log?: (line: string) => void;
}

/** The worker's source: the functions by their (possibly bundler-given) names, then the main loop. */
export function workerSource(): string {
  const fns = [...FRAME_FUNCTIONS, ...WORKER_FUNCTIONS];
  return [
    "'use strict';",
    // tsx (esbuild keepNames) wraps functions in __name(fn, "name"); the worker has no such helper.
    'var __name = (fn) => fn;',
    ...fns.map((fn) => fn.toString()),
    `${videoWorkerMain.name}(require, { fitCover: ${fitCover.name}, renderFrame: ${renderFrame.name} });`,
  ].join('\n');
}

/** Absolute paths of the modules the worker loads (outside the archive in a packaged app). */
function modulePaths(): WorkerModules {
  const req = createRequire(import.meta.url);
  const at = (name: string): string => unpackedPath(req.resolve(name));
  return { encoder: at('h264-mp4-encoder'), jpeg: at('jpeg-js'), png: at('pngjs') };
}

interface Waiting {
  resolve: (mp4: Uint8Array) => void;
  reject: (err: Error) => void;
}

export class VideoEncoder {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly idleMs: number;
  private readonly log: (line: string) => void;

  constructor(options: EncoderOptions = {}) {
    this.idleMs = options.idleMs ?? 30_000;
    this.log = options.log ?? (() => undefined);
  }

  /** Jobs posted and not yet answered. */
  get queued(): number {
    return this.waiting.size;
  }

  /** Draws and encodes a video; resolves to the MP4's bytes. Jobs run one at a time, in order. */
  encode(job: EncodeJob): Promise<Uint8Array> {
    if (this.closed) return Promise.reject(new Error('the sandbox is closing'));
    const id = this.nextId++;
    const request: EncodeRequest = { id, plan: job.plan, background: job.background, tiles: job.tiles };
    return new Promise<Uint8Array>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.clearIdle();
      this.ensureWorker().postMessage(request);
    });
  }

  /** Stops the worker; jobs still waiting are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    this.clearIdle();
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the sandbox closed before the video was encoded'));
    if (worker) await worker.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource(), { eval: true, workerData: modulePaths() });
    // The worker never keeps the process alive: a job still encoding at exit is simply lost.
    worker.unref();
    worker.on('message', (reply: EncodeReply) => this.settle(reply));
    worker.on('error', (err) => {
      for (const line of `sandbox video encoder failed: ${err.stack ?? err.message}`.split('\n')) this.log(line);
      if (this.worker === worker) this.worker = null;
      this.failAll(err);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (this.waiting.size > 0) this.failAll(new Error(`the video encoder stopped (exit code ${code})`));
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: EncodeReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.mp4);
    else waiting.reject(new Error(reply.message));
    if (this.waiting.size === 0) this.scheduleIdle();
  }

  private failAll(err: Error): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of all) w.reject(err);
  }

  private scheduleIdle(): void {
    this.clearIdle();
    this.idleTimer = setTimeout(() => {
      const worker = this.worker;
      this.worker = null;
      void worker?.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}

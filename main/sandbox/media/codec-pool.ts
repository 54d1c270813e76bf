/**
 * JPEG / PNG encoding and decoding off the event loop. The sandbox runs inside the app's main
 * process, and one 2048x2048 JPEG takes jpeg-js ~160 ms (a 1024x1024 ~60-90 ms): too long to
 * block it. So the codecs run in worker_threads (up to two, started on first use, unref'd).
 *
 * The worker is a small CommonJS script evaluated from a string (`eval: true`) that loads jpeg-js
 * and pngjs by the absolute paths resolved here: no separate entry file to build or locate, so it
 * works the same under tsx, vitest and the bundled app. If a worker cannot start, the work is done
 * inline (logged once) rather than failing the request.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { DecodeGate } from './decode-gate';
import { encodeJpeg, encodePng, imageSize, MAX_DECODE_PIXELS, resizeRgba, type RgbaImage } from './image-codec';
import { unpackedPath } from './unpacked-path';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const jpeg = require(workerData.jpegJs);
const { PNG } = require(workerData.pngjs);
const view = (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
// tsx (esbuild keepNames) may wrap functions in __name(fn, "name"); the worker has no such helper.
var __name = (fn) => fn;
const resizeRgba = (${resizeRgba.toString()});
// A decoded picture scaled down to what its use needs before it leaves the worker (see decode()).
const shrink = (img, to) => (to ? resizeRgba(img, to.width, to.height) : img);
parentPort.on('message', (job) => {
  try {
    if (job.op === 'encode-jpeg') {
      const out = view(jpeg.encode({ data: job.data, width: job.width, height: job.height }, job.quality).data);
      parentPort.postMessage({ id: job.id, ok: true, bytes: out }, [out.buffer]);
    } else if (job.op === 'encode-png') {
      const png = new PNG({ width: job.width, height: job.height });
      png.data = Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength);
      const out = view(PNG.sync.write(png));
      parentPort.postMessage({ id: job.id, ok: true, bytes: out }, [out.buffer]);
    } else if (job.op === 'decode-jpeg') {
      const img = shrink(jpeg.decode(job.bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: job.maxMP, maxMemoryUsageInMB: 1024 }), job.resizeTo);
      const data = img.data.byteOffset === 0 && img.data.byteLength === img.data.buffer.byteLength ? img.data : img.data.slice();
      parentPort.postMessage({ id: job.id, ok: true, width: img.width, height: img.height, data }, [data.buffer]);
    } else if (job.op === 'decode-png') {
      const png = PNG.sync.read(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
      const img = shrink({ width: png.width, height: png.height, data: view(png.data) }, job.resizeTo);
      const data = img.data.byteOffset === 0 && img.data.byteLength === img.data.buffer.byteLength ? img.data : img.data.slice();
      parentPort.postMessage({ id: job.id, ok: true, width: img.width, height: img.height, data }, [data.buffer]);
    } else {
      throw new Error('unknown op ' + job.op);
    }
  } catch (err) {
    parentPort.postMessage({ id: job.id, ok: false, message: String(err && err.message || err) });
  }
});
`;

type Job =
  | { op: 'encode-jpeg'; data: Uint8Array; width: number; height: number; quality: number }
  | { op: 'encode-png'; data: Uint8Array; width: number; height: number }
  | { op: 'decode-jpeg' | 'decode-png'; bytes: Uint8Array; resizeTo: { width: number; height: number } | null };

interface Reply {
  id: number;
  ok: boolean;
  message?: string;
  bytes?: Uint8Array;
  width?: number;
  height?: number;
  data?: Uint8Array;
}

interface Slot {
  worker: Worker;
  busy: number;
  /**
   * Answered once: until then pixels are copied rather than moved to it, so if it cannot start
   * (the codecs fail to load) its jobs can still run inline.
   */
  proven: boolean;
}

interface Queued {
  id: number;
  job: Job;
  resolve: (r: Reply) => void;
  reject: (e: Error) => void;
  inline: () => Reply;
}

/** Also catches pixels already moved to a worker (a detached buffer reads as 0 bytes). */
function checkPixels(job: Job): void {
  if ('data' in job && job.data.byteLength !== job.width * job.height * 4) {
    throw new Error(`the pixels are ${job.data.byteLength} bytes; ${job.width}x${job.height} RGBA needs ${job.width * job.height * 4}`);
  }
}

/**
 * Buffers a job hands over without a copy: the pixels to encode, when they are a view of a whole
 * ArrayBuffer (not a pooled Buffer's slice). Bytes to decode are copied: they may be stored media.
 */
function transferable(job: Job): ArrayBuffer[] {
  if (!('data' in job)) return [];
  const view = job.data;
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer ? [view.buffer] : [];
}

/** The size a `size` picture scales down to so it still covers `cover` (null when it is not larger). */
export function shrinkToCover(size: { width: number; height: number }, cover: { width: number; height: number }): { width: number; height: number } | null {
  const scale = Math.max(cover.width / size.width, cover.height / size.height);
  if (scale >= 1) return null;
  return { width: Math.max(1, Math.ceil(size.width * scale)), height: Math.max(1, Math.ceil(size.height * scale)) };
}

export class CodecPool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Queued & { slot: Slot }>();
  /** Jobs wait here until a worker is free: posting all at once would clone every buffer in one turn. */
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private broken = false;
  private closed = false;
  private readonly size: number;
  /** Pixels decoded at once, across workers and inline (one 50 MP picture, or several small ones). */
  readonly gate = new DecodeGate(MAX_DECODE_PIXELS);

  constructor(
    private readonly log: (line: string) => void = () => undefined,
    size = Math.min(2, availableParallelism()),
    /** Where the workers load the codecs from (tests point it somewhere broken). */
    private readonly modules?: { jpegJs: string; pngjs: string },
  ) {
    this.size = Math.max(1, size);
  }

  /**
   * JPEG bytes of RGBA pixels. The pixels are moved to the worker (not copied) when `rgba` spans
   * its whole ArrayBuffer and the worker is up: do not use `rgba` afterwards.
   */
  async encodeJpeg(rgba: Uint8Array, width: number, height: number, quality = 85): Promise<Uint8Array> {
    const reply = await this.run({ op: 'encode-jpeg', data: rgba, width, height, quality }, () => ({ id: 0, ok: true, bytes: encodeJpeg(rgba, width, height, quality) }));
    return reply.bytes as Uint8Array;
  }

  async encodePng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
    const reply = await this.run({ op: 'encode-png', data: rgba, width, height }, () => ({ id: 0, ok: true, bytes: encodePng(rgba, width, height) }));
    return reply.bytes as Uint8Array;
  }

  /**
   * Decodes JPEG or PNG bytes to RGBA. The caller has checked them (image-check.ts: the header's
   * size within 50 MP, nothing cut short, no zlib bomb). Decodes wait at the pool's gate while
   * others hold too many pixels (decode-gate.ts). With `cover`, a picture larger than needed to
   * cover that size is scaled down in the worker before it is handed back, so a request keeps
   * (and moves between threads) only the pixels it will draw, not 200 MB per 50 MP input.
   */
  async decode(bytes: Uint8Array, mime: 'image/jpeg' | 'image/png', cover?: { width: number; height: number }): Promise<RgbaImage> {
    // The header's size (cheap); unreadable: the whole allowance, and the codec says what is wrong.
    const size = imageSize(bytes) ?? { width: MAX_DECODE_PIXELS, height: 1 };
    const resizeTo = cover ? shrinkToCover(size, cover) : null;
    const inline = (): Reply => {
      let img: RgbaImage;
      if (mime === 'image/png') {
        const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
        img = { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
      } else {
        img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_DECODE_PIXELS / 1e6, maxMemoryUsageInMB: 1024 });
      }
      if (resizeTo) img = resizeRgba(img, resizeTo.width, resizeTo.height);
      return { id: 0, ok: true, width: img.width, height: img.height, data: img.data };
    };
    const reply = await this.gate.run(size.width * size.height, () => this.run({ op: mime === 'image/png' ? 'decode-png' : 'decode-jpeg', bytes, resizeTo }, inline));
    return { width: reply.width as number, height: reply.height as number, data: reply.data as Uint8Array };
  }

  /** Stops the workers; jobs still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    for (const { reject } of [...this.pending.values(), ...this.queue]) reject(new Error('the codec pool was closed'));
    this.pending.clear();
    this.queue.length = 0;
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private async run(job: Job, inline: () => Reply): Promise<Reply> {
    checkPixels(job);
    if (this.broken || this.closed) return inline();
    const reply = await new Promise<Reply>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject, inline });
      this.dispatch();
    });
    if (!reply.ok) throw new Error(reply.message);
    return reply;
  }

  /** Hands queued jobs to idle workers (starting workers up to `size`); with none able to start, runs them inline. */
  private dispatch(): void {
    if (this.broken) {
      this.drainInline();
      return;
    }
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (slot === 'inline') {
        this.drainInline();
        return;
      }
      if (!slot) return;
      const q = this.queue.shift() as Queued;
      try {
        slot.worker.postMessage({ ...q.job, id: q.id, maxMP: MAX_DECODE_PIXELS / 1e6 }, slot.proven ? transferable(q.job) : []);
      } catch (err) {
        // A buffer that cannot be sent (already transferred elsewhere): this job fails, the worker is fine.
        q.reject(err as Error);
        continue;
      }
      this.pending.set(q.id, { ...q, slot });
      slot.busy++;
      slot.worker.ref();
    }
  }

  private idleSlot(): Slot | null | 'inline' {
    const idle = this.slots.find((s) => s.busy === 0);
    if (idle) return idle;
    if (this.slots.length >= this.size) return null;
    try {
      return this.start();
    } catch (err) {
      this.fallBack(err as Error);
      return this.slots.length === 0 ? 'inline' : null;
    }
  }

  private start(): Slot {
    const require = createRequire(import.meta.url);
    const modules = this.modules ?? { jpegJs: unpackedPath(require.resolve('jpeg-js')), pngjs: unpackedPath(require.resolve('pngjs')) };
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: modules });
    const slot: Slot = { worker, busy: 0, proven: false };
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      slot.proven = true;
      slot.busy--;
      if (slot.busy === 0) worker.unref();
      waiting.resolve(reply);
      this.dispatch();
    });
    worker.on('error', (err) => this.lose(slot, err));
    worker.on('exit', (code) => {
      if (!this.closed) this.lose(slot, new Error(`the codec worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  /**
   * A worker died. One that never answered could not load the codecs (e.g. from inside a packaged
   * archive), and neither will any other: every job runs inline from now on, its own included
   * (their pixels were copied, not moved). One that had worked (a crash mid-run) fails its jobs;
   * the next jobs start a new worker.
   */
  private lose(slot: Slot, err: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    const mine = [...this.pending].filter(([, waiting]) => waiting.slot === slot);
    for (const [id] of mine) this.pending.delete(id);
    if (slot.proven) {
      for (const [, waiting] of mine) waiting.reject(err);
      this.dispatch();
      return;
    }
    this.fallBack(err);
    const others = this.slots.splice(0);
    const stranded = [...this.pending.values()];
    this.pending.clear();
    for (const other of others) void other.worker.terminate();
    this.queue.unshift(...mine.map(([, waiting]) => waiting), ...stranded);
    this.drainInline();
  }

  private drainInline(): void {
    for (const q of this.queue.splice(0)) {
      try {
        checkPixels(q.job);
        q.resolve(q.inline());
      } catch (err) {
        q.reject(err as Error);
      }
    }
  }

  private fallBack(err: Error): void {
    if (this.broken) return;
    this.broken = true;
    this.log(`sandbox media: codec workers unavailable (${err.message.split('\n')[0]}); encoding on the main thread`);
  }
}

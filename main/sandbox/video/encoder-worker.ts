/**
 * The encoder's worker thread: decodes the input pictures, draws every frame (frames.ts) and
 * encodes them to H.264 MP4 with `h264-mp4-encoder` (x264 and an MP4 muxer compiled to
 * WebAssembly), one job at a time, so the sandbox's event loop (the app's main process) never
 * waits on it.
 *
 * Like frames.ts, these functions are sent to the worker as source text (encoder.ts): they use
 * only their arguments, each other and built-ins (the frame functions come in as `draw`, modules
 * through the `require` they are given, by absolute paths the main thread resolved).
 */
import type { Picture, ScenePictures, ScenePlan } from './frames';

/** An input picture as the worker gets it: encoded bytes (JPEG, PNG) or pixels decoded already. */
export type PictureInput = { mime: string; bytes: Uint8Array } | { picture: Picture };

export interface EncodeRequest {
  id: number;
  plan: ScenePlan;
  background: PictureInput | null;
  tiles: PictureInput[];
}

export type EncodeReply = { id: number; ok: true; mp4: Uint8Array; ms: number } | { id: number; ok: false; message: string };

/** Module paths the worker loads (resolved by the main thread, so the worker needs no module resolution). */
export interface WorkerModules {
  encoder: string;
  jpeg: string;
  png: string;
}

type Require = (id: string) => unknown;

/**
 * The frame functions, passed in rather than referred to: a bundler may rename frames.ts's
 * functions and a test runner may rewrite imported names, but an argument is always what it is.
 */
export interface Draw {
  fitCover(src: Picture, width: number, height: number): Picture;
  renderFrame(plan: ScenePlan, s: number, out: Uint8Array, pictures: ScenePictures): void;
}

interface H264Encoder {
  width: number;
  height: number;
  frameRate: number;
  quantizationParameter: number;
  speed: number;
  groupOfPictures: number;
  outputFilename: string;
  initialize(): void;
  addFrameRgba(frame: Uint8Array): void;
  finalize(): void;
  delete(): void;
  FS: { readFile(path: string): Uint8Array; unlink(path: string): void };
}

/** Decodes a JPEG or PNG to RGBA with jpeg-js / pngjs (other kinds arrive decoded). */
export function decodePicture(input: PictureInput, req: Require, modules: WorkerModules): Picture {
  if ('picture' in input) return input.picture;
  if (input.mime === 'image/jpeg') {
    const jpeg = req(modules.jpeg) as { decode(b: Uint8Array, o: object): { width: number; height: number; data: Uint8Array } };
    const img = jpeg.decode(input.bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
    return { width: img.width, height: img.height, data: img.data };
  }
  if (input.mime === 'image/png') {
    const { PNG } = req(modules.png) as { PNG: { sync: { read(b: Buffer): { width: number; height: number; data: Buffer } } } };
    const img = PNG.sync.read(Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength));
    return { width: img.width, height: img.height, data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength) };
  }
  throw new Error(`cannot decode a ${input.mime} picture in the encoder`);
}

/** Draws and encodes one video; resolves to the MP4's bytes. */
export async function encodeVideo(job: EncodeRequest, req: Require, modules: WorkerModules, draw: Draw): Promise<Uint8Array> {
  const { plan } = job;
  const { fitCover, renderFrame } = draw;
  const pictures: ScenePictures = { background: null, tiles: [] };
  if (job.background) pictures.background = fitCover(decodePicture(job.background, req, modules), plan.width, plan.height);
  const side = Math.max(2, Math.round(plan.height * 0.22));
  pictures.tiles = job.tiles.map((t) => fitCover(decodePicture(t, req, modules), side, side));
  const hme = req(modules.encoder) as { createH264MP4Encoder(): Promise<H264Encoder> };
  const enc = await hme.createH264MP4Encoder();
  try {
    enc.width = plan.width;
    enc.height = plan.height;
    enc.frameRate = plan.fps;
    enc.quantizationParameter = 30;
    enc.speed = 10;
    // A key frame every second, so a player seeks quickly.
    enc.groupOfPictures = plan.fps;
    enc.outputFilename = `video-${job.id}.mp4`;
    enc.initialize();
    const frame = new Uint8Array(plan.width * plan.height * 4);
    for (let i = 0; i < plan.frames; i++) {
      renderFrame(plan, plan.startFrame + i, frame, pictures);
      enc.addFrameRgba(frame);
    }
    enc.finalize();
    const mp4 = enc.FS.readFile(enc.outputFilename);
    enc.FS.unlink(enc.outputFilename);
    return mp4;
  } finally {
    enc.delete();
  }
}

/** The worker's message loop: one job at a time, each answered with its MP4 or an error. */
export function videoWorkerMain(req: Require, draw: Draw): void {
  const threads = req('node:worker_threads') as typeof import('node:worker_threads');
  const port = threads.parentPort;
  const modules = threads.workerData as WorkerModules;
  if (!port) return;
  let chain = Promise.resolve();
  port.on('message', (job: EncodeRequest) => {
    chain = chain.then(async () => {
      const started = Date.now();
      try {
        const mp4 = await encodeVideo(job, req, modules, draw);
        const reply: EncodeReply = { id: job.id, ok: true, mp4, ms: Date.now() - started };
        port.postMessage(reply, [mp4.buffer as ArrayBuffer]);
      } catch (err) {
        const reply: EncodeReply = { id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) };
        port.postMessage(reply);
      }
    });
  });
}

/** This file's functions, for the worker's source (see encoder.ts). */
export const WORKER_FUNCTIONS = [decodePicture, encodeVideo, videoWorkerMain];

/**
 * The code of eSpeak's worker thread, as a function whose source text becomes the worker (the
 * video encoder's way: `new Worker(code, {eval: true})` runs the same from the TypeScript sources
 * and from the bundle). It loads the `espeak-ng` module and its WebAssembly by absolute paths
 * resolved by the parent, instantiates it ONCE with `noInitialRun`, snapshots its linear memory,
 * and for each request restores the snapshot (resetting every C static: getopt's index, eSpeak's
 * globals) and calls main() with that request's arguments. It answers with the WAV eSpeak wrote.
 * It also runs the MP3 encoders (lamejs is slow JavaScript: ~0.1-0.9 s per second of audio here),
 * one per utterance, fed in order.
 *
 * Everything it uses must be inside the function: it is serialised with `Function.toString()`.
 * `load` is the worker script's own `import()` (passed in: test runners rewrite `import()` inside
 * functions they transform, which would not exist in the worker).
 */

export interface EspeakWorkerData {
  modulePath: string;
  wasmPath: string;
  /** lamejs's ES module: MP3 encoding runs here too, off the event loop. */
  lamePath: string;
}

export type EspeakRequest =
  | { id: number; op: 'speak'; argv: string[] }
  /** Feeds an MP3 stream (made on first use); `end` flushes and forgets it. */
  | { id: number; op: 'mp3'; stream: number; sampleRate: number; kbps: number; samples: Int16Array | null; end: boolean };
/** `wav` for speak, `bytes` for mp3. */
export type EspeakReply = { id: number; wav: Uint8Array } | { id: number; bytes: Uint8Array } | { id: number; error: string };

/* eslint-disable @typescript-eslint/no-explicit-any -- runs as plain JavaScript in the worker */
export function espeakWorkerMain(require: (name: string) => any, load: (url: string) => Promise<any>): void {
  const { parentPort, workerData } = require('node:worker_threads');
  const { readFileSync } = require('node:fs');
  const { pathToFileURL } = require('node:url');
  const data = workerData as EspeakWorkerData;
  let errors: string[] = [];
  let ready: Promise<{ module: any; exports: any; snapshot: Uint8Array }> | null = null;
  const start = () =>
    (ready ??= (async () => {
      const factory = (await load(pathToFileURL(data.modulePath).href)).default;
      let exports: any = null;
      const module = await factory({
        noInitialRun: true,
        print: () => undefined,
        printErr: (line: string) => errors.push(line),
        instantiateWasm(imports: unknown, done: (instance: unknown, module: unknown) => void) {
          void (globalThis as any).WebAssembly.instantiate(readFileSync(data.wasmPath), imports).then((r: any) => {
            exports = r.instance.exports;
            done(r.instance, r.module);
          });
          return {};
        },
      });
      if (!exports) throw new Error('eSpeak NG did not start: its WebAssembly exports are missing.');
      return { module, exports, snapshot: new Uint8Array(exports.memory.buffer).slice() };
    })());
  let lame: Promise<any> | null = null;
  const encoders = new Map<number, any>();
  const copy = (b: ArrayBufferView) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  async function mp3(request: Extract<EspeakRequest, { op: 'mp3' }>): Promise<Uint8Array> {
    const lib = await (lame ??= load(pathToFileURL(data.lamePath).href));
    let encoder = encoders.get(request.stream);
    if (!encoder) {
      encoder = new lib.Mp3Encoder(1, request.sampleRate, request.kbps);
      encoders.set(request.stream, encoder);
    }
    const parts: Uint8Array[] = [];
    if (request.samples) parts.push(copy(encoder.encodeBuffer(request.samples)));
    if (request.end) {
      parts.push(copy(encoder.flush()));
      encoders.delete(request.stream);
    }
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
  let calls = 0;
  parentPort.on('message', async (request: EspeakRequest) => {
    try {
      if (request.op === 'mp3') {
        const bytes = await mp3(request);
        parentPort.postMessage({ id: request.id, bytes }, [bytes.buffer]);
        return;
      }
      const { module, exports, snapshot } = await start();
      const out = `/out-${++calls}.wav`;
      const argv = ['espeak-ng', '-w', out, ...request.argv];
      new Uint8Array(exports.memory.buffer).set(snapshot);
      errors = [];
      const enc = new TextEncoder();
      const pointers = argv.map((a) => {
        const bytes = enc.encode(`${a}\0`);
        const p = exports.malloc(bytes.length);
        new Uint8Array(exports.memory.buffer, p, bytes.length).set(bytes);
        return p;
      });
      const table = exports.malloc(4 * (pointers.length + 1));
      new Uint32Array(exports.memory.buffer, table, pointers.length + 1).set([...pointers, 0]);
      // No free(): the next call restores the snapshot, which frees everything at once.
      const rc = exports.__main_argc_argv(argv.length, table);
      if (rc !== 0 || !module.FS.analyzePath(out).exists) {
        throw new Error(`eSpeak NG failed (exit ${rc})${errors.length ? `: ${errors.join(' ')}` : ''}`);
      }
      const wav: Uint8Array = module.FS.readFile(out);
      module.FS.unlink(out);
      parentPort.postMessage({ id: request.id, wav }, [wav.buffer]);
    } catch (err) {
      parentPort.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
}
/* eslint-enable @typescript-eslint/no-explicit-any */

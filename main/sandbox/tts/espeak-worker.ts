/**
 * The code of eSpeak's worker thread, as a function whose source text becomes the worker (the
 * video encoder's way: `new Worker(code, {eval: true})` runs the same from the TypeScript sources
 * and from the bundle). It loads the `espeak-ng` module and its WebAssembly by absolute paths
 * resolved by the parent, instantiates it ONCE with `noInitialRun`, snapshots its linear memory,
 * and for each request restores the snapshot (resetting every C static: getopt's index, eSpeak's
 * globals) and calls main() with that request's arguments. It answers with the WAV eSpeak wrote.
 *
 * Everything it uses must be inside the function: it is serialised with `Function.toString()`.
 * `load` is the worker script's own `import()` (passed in: test runners rewrite `import()` inside
 * functions they transform, which would not exist in the worker).
 */

export interface EspeakWorkerData {
  modulePath: string;
  wasmPath: string;
}

export type EspeakRequest = { id: number; argv: string[] };
export type EspeakReply = { id: number; wav: Uint8Array } | { id: number; error: string };

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
  let calls = 0;
  parentPort.on('message', async (request: EspeakRequest) => {
    try {
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

/**
 * eSpeak NG (the `espeak-ng` npm package: its command line compiled to WebAssembly) kept in
 * process. The package only offers "instantiate and run main() once", which costs ~0.5-0.8 s here
 * per call (instantiating the 18 MB module and initialising its file system). Instead the module is
 * instantiated ONCE with `noInitialRun`, its linear memory is snapshotted, and each synthesis
 * restores that snapshot (resetting every C static: getopt's index, eSpeak's globals) and calls
 * main() again with new arguments through the module's own exports. Measured on this machine: the
 * first start ~0.8-1.5 s, then a short phrase ~60 ms and a sentence ~90-300 ms (loaded 2 cores).
 *
 * Calls run one at a time on the event loop (main() is synchronous); the caller keeps text chunks
 * short (sentences) so no single call blocks for long.
 */
import ESpeakNg from 'espeak-ng';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { decodeWav } from '../audio/decode';

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
  /** `-g` extra gap between words in 10 ms units. */
  wordGap?: number;
  /** The text is SSML (`-m`). */
  ssml?: boolean;
  text: string;
}

/**
 * The bits of WebAssembly used here: the main-process tsconfig has no DOM lib, so no global
 * WebAssembly types (the runtime has it all).
 */
interface Wasm {
  instantiate(bytes: Uint8Array, imports: unknown): Promise<{ instance: { exports: unknown }; module: unknown }>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

interface EspeakExports {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): number;
  __main_argc_argv(argc: number, argv: number): number;
}

interface EspeakModule {
  FS: {
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
    analyzePath(path: string): { exists: boolean };
  };
}

type Factory = (options: Record<string, unknown>) => Promise<EspeakModule>;

function wasmBytes(): Uint8Array {
  // Resolved from this module so the same code runs from sources (tsx, vitest) and the bundle.
  const require = createRequire(import.meta.url);
  const entry = require.resolve('espeak-ng');
  return readFileSync(entry.replace(/espeak-ng\.js$/, 'espeak-ng.wasm'));
}

export class EspeakEngine {
  private ready: Promise<{ module: EspeakModule; exports: EspeakExports; snapshot: Uint8Array }> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private errors: string[] = [];
  /** How many syntheses ran (tests check the instance is kept). */
  calls = 0;
  starts = 0;

  private start() {
    this.ready ??= (async () => {
      this.starts++;
      let exports: EspeakExports | null = null;
      const module = await (ESpeakNg as unknown as Factory)({
        noInitialRun: true,
        print: () => undefined,
        printErr: (line: string) => this.errors.push(line),
        instantiateWasm(imports: unknown, done: (instance: unknown, module: unknown) => void) {
          void wasm.instantiate(wasmBytes(), imports).then(({ instance, module: compiled }) => {
            exports = instance.exports as unknown as EspeakExports;
            done(instance, compiled);
          });
          return {};
        },
      });
      if (!exports) throw new Error('eSpeak NG did not start: its WebAssembly exports are missing.');
      const ex: EspeakExports = exports;
      return { module, exports: ex, snapshot: new Uint8Array(ex.memory.buffer).slice() };
    })();
    return this.ready;
  }

  /** Synthesises one chunk: mono float samples at ESPEAK_RATE. */
  synthesize(args: EspeakArgs): Promise<Float32Array> {
    const job = async () => {
      const { module, exports, snapshot } = await this.start();
      this.calls++;
      const out = `/out-${this.calls}.wav`;
      const argv = ['espeak-ng', '-w', out, '-v', args.voice, '-p', String(Math.round(args.pitch)), '-s', String(Math.round(args.wpm))];
      if (args.amplitude !== undefined) argv.push('-a', String(Math.round(args.amplitude)));
      if (args.wordGap) argv.push('-g', String(Math.round(args.wordGap)));
      if (args.ssml) argv.push('-m');
      // `--` would be read as text by eSpeak; a leading '-' in text is kept from being an option by a space.
      argv.push(args.text.startsWith('-') ? ` ${args.text}` : args.text);
      new Uint8Array(exports.memory.buffer).set(snapshot);
      this.errors = [];
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
        throw new Error(`eSpeak NG failed (exit ${rc})${this.errors.length ? `: ${this.errors.join(' ')}` : ''}`);
      }
      const wav = module.FS.readFile(out);
      module.FS.unlink(out);
      const decoded = decodeWav(wav);
      if (!decoded.ok) throw new Error(`eSpeak NG wrote an unreadable WAV: ${decoded.error.message}`);
      return decoded.audio.channels[0];
    };
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

let shared: EspeakEngine | null = null;

/** One engine per process: it keeps no state between calls (each restores the snapshot), so sandboxes share it. */
export function sharedEspeakEngine(): EspeakEngine {
  shared ??= new EspeakEngine();
  return shared;
}

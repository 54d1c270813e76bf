// A Vite plugin for the renderer build: writes a Brotli (`.br`) and a gzip (`.gz`) copy beside
// every text asset worth compressing, so browser mode's server sends the smaller one the browser
// accepts without compressing on each request (main/host/static-files.ts picks the variant).
// Electron reads the same files from disk through app:// and ignores the copies.
// It runs in writeBundle, on the files as written: earlier hooks see chunks before Vite's own
// post-processing (its preload helper placeholders are still in them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Assets smaller than this gain too little to be worth a second and third file. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|ttf|otf|eot)$/;

/** @returns {import('vite').Plugin} */
export function precompress() {
  return {
    name: 'workbench-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? '.';
      for (const file of Object.values(bundle)) {
        if (!COMPRESSIBLE.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? Buffer.from(file.code) : Buffer.from(file.source);
        if (source.length < MIN_BYTES) continue;
        const path = join(dir, file.fileName);
        const br = brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        });
        writeFileSync(`${path}.br`, br);
        writeFileSync(`${path}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

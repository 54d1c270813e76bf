// Preload build: ONE CommonJS file (out/preload/index.cjs). Sandboxed preloads can neither load
// ESM nor require from node_modules, so everything except 'electron' (zod included) is bundled.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    ssr: fileURLToPath(new URL('./preload/index.ts', import.meta.url)),
    target: 'node20',
    outDir: fileURLToPath(new URL('./out/preload', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    minify: false,
    rollupOptions: {
      external: ['electron'],
      output: { format: 'cjs', entryFileNames: 'index.cjs' },
    },
  },
  ssr: { noExternal: true, external: ['electron'], target: 'node' },
});

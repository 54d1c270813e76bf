// Main-process build: the two shells' entries and the media process's -> out/main/{electron,browser,media}.js (Node ESM).
// npm dependencies stay external (native modules such as better-sqlite3 must load from node_modules).
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const entry = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const pkg = (await import('./package.json', { with: { type: 'json' } })).default as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const packages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];

export default defineConfig({
  build: {
    ssr: true,
    target: 'node20',
    outDir: entry('./out/main'),
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { electron: entry('./main/electron/index.ts'), browser: entry('./main/browser/index.ts'), media: entry('./main/media/entry.ts') },
      external: (id) =>
        id.startsWith('node:') ||
        builtinModules.includes(id) ||
        packages.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/common-[hash].js' },
    },
  },
  ssr: { target: 'node' },
});

// Unit, integration and conformance tests run in Node; renderer tests in happy-dom.
// End-to-end tests have their own config (vitest.e2e.config.ts).
//
// Workers: vitest's default in `run` mode is availableParallelism() - 1, which is ONE worker on a
// 2-core machine (CI's), so the whole suite ran file after file on one core. The node and renderer
// projects ask for 2. Tests that pace audio in real time (a media process, an ALSA file device, the
// sandbox's realtime socket, a blocked main loop) stay in their own project run afterwards with one
// worker, as the whole suite used to: they are not made to share the cores with other test files.
//
// Renderer tests run in two projects. Most of them share their worker's modules and happy-dom
// window from one file to the next (`isolate: false`): set up afresh for every file, Vue,
// PrimeVue, the app's modules and the window cost more than the tests themselves (the 159 files
// alone, beside the lead's benches: 157 s isolated, 76 s so). setup.ts gives each file a clean
// window (body, storages, timers, stubbed globals). The files that mock modules (vi.mock / vi.doMock) stay
// isolated in `renderer-isolated`: a mocked module would reach the files after them in a worker.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { configDefaults, defineConfig } from 'vitest/config';

const alias = {
  '@': fileURLToPath(new URL('./renderer/src', import.meta.url)),
  '@shared': fileURLToPath(new URL('./shared', import.meta.url)),
};

/** Real-time tests: one file at a time, after the others (sequence.groupOrder 1). */
const REAL_TIME = ['test/audio/**/*.test.ts', 'test/integration/live/**/*.test.ts', 'test/integration/sandbox/realtime/**/*.test.ts', 'test/integration/media/**/*.test.ts'];
/** Renderer test files that mock modules: run isolated, each in a fresh worker (see above). */
const RENDERER_MOCKING = (readdirSync(new URL('./test/renderer', import.meta.url), { recursive: true }) as string[])
  .map((file) => `test/renderer/${file}`)
  .filter((file) => file.endsWith('.test.ts') && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(new URL(file, import.meta.url), 'utf8')));
/** The parallel projects' workers. */
const WORKERS = 2;

export default defineConfig({
  plugins: [vue()],
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REAL_TIME],
          testTimeout: 30_000,
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'real-time',
          environment: 'node',
          include: REAL_TIME,
          testTimeout: 30_000,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...RENDERER_MOCKING],
          setupFiles: ['test/renderer/setup.ts'],
          isolate: false,
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer-isolated',
          environment: 'happy-dom',
          include: RENDERER_MOCKING,
          setupFiles: ['test/renderer/setup.ts'],
          maxWorkers: WORKERS,
        },
      },
    ],
  },
});

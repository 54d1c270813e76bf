#!/usr/bin/env node
// Builds everything into out/: the renderer (vite.config.ts), the main entries (vite.main.config.ts)
// and the preload (vite.preload.config.ts), then writes out/.build-stamp.
// `--if-stale` skips the build when the stamp is newer than every source file and config.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(root, 'out', '.build-stamp');
const SOURCE_DIRS = ['renderer', 'main', 'preload', 'shared'];
const CONFIGS = ['vite.config.ts', 'vite.main.config.ts', 'vite.preload.config.ts', 'package.json', 'tsconfig.base.json'];
const BUILDS = [
  ['renderer', 'vite.config.ts'],
  ['main', 'vite.main.config.ts'],
  ['preload', 'vite.preload.config.ts'],
];

/** Newest modification time (ms) under `path`, skipping node_modules and dot folders. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** True when out/ is missing or older than any input. */
export function isStale(base = root) {
  const stamp = join(base, 'out', '.build-stamp');
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [...SOURCE_DIRS, ...CONFIGS].map((p) => newestMtime(join(base, p)));
  return inputs.some((t) => t > built);
}

/** `--only=main,preload` builds a subset (and leaves the stamp alone, since out/ is then partial). */
function selectedBuilds(argv) {
  const only = argv.find((a) => a.startsWith('--only='));
  if (!only) return { builds: BUILDS, complete: true };
  const names = only.slice('--only='.length).split(',');
  return { builds: BUILDS.filter(([name]) => names.includes(name)), complete: false };
}

async function build(argv) {
  const { build: viteBuild } = await import('vite');
  const { builds, complete } = selectedBuilds(argv);
  for (const [name, config] of builds) {
    process.stderr.write(`build: ${name} (${config})\n`);
    await viteBuild({ configFile: join(root, config), root: name === 'renderer' ? undefined : root, logLevel: 'warn' });
  }
  if (!complete) return;
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

async function main() {
  if (process.argv.includes('--if-stale') && !isStale()) {
    process.stderr.write('build: up to date\n');
    return;
  }
  await build(process.argv.slice(2));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`build failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}

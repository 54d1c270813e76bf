/**
 * Where the built pieces are relative to a built entry (out/main/*.js): the renderer at
 * out/renderer, the preload at out/preload/index.cjs, package.json two levels up.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppPaths {
  rendererDir: string;
  preloadFile: string;
  packageJson: string;
}

/** Paths for the entry module at `entryUrl` (pass `import.meta.url`). */
export function appPaths(entryUrl: string): AppPaths {
  const here = dirname(fileURLToPath(entryUrl));
  return {
    rendererDir: resolve(here, '../renderer'),
    preloadFile: resolve(here, '../preload/index.cjs'),
    packageJson: resolve(here, '../../package.json'),
  };
}

/** The app's version from package.json, or '0.0.0' when it cannot be read. */
export function readVersion(packageJson: string): string {
  try {
    const parsed = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}


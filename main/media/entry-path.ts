/**
 * Where the media process's entry is, seen from a shell's entry module: next to it once built
 * (out/main/media.js, vite.main.config.ts), or main/media/entry.ts through tsx when the shell
 * itself runs from source (`tsx main/browser/index.ts`, as tests do).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function mediaEntryFor(shellEntryUrl: string): { entry: string; execArgv: string[] } {
  const path = fileURLToPath(shellEntryUrl);
  if (path.endsWith('.ts')) return { entry: resolve(dirname(path), '../media/entry.ts'), execArgv: ['--import', 'tsx'] };
  return { entry: resolve(dirname(path), 'media.js'), execArgv: [] };
}

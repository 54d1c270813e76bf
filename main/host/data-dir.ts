/**
 * Where the workbench keeps its data when no folder is given: one per-user folder per OS, shared
 * by both shells so history is the same whichever one starts.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DATA_DIR_NAME = 'inference-workbench';

/**
 * `--data-dir` wins, then WORKBENCH_DATA_DIR, then the OS convention:
 * Linux `$XDG_DATA_HOME/inference-workbench` (default ~/.local/share/...),
 * macOS `~/Library/Application Support/inference-workbench`, Windows `%APPDATA%\inference-workbench`.
 */
export function resolveDataDir(
  explicit: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (explicit) return explicit;
  if (env.WORKBENCH_DATA_DIR) return env.WORKBENCH_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', DATA_DIR_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), DATA_DIR_NAME);
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), DATA_DIR_NAME);
}

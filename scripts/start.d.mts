// Types of scripts/start.mjs, for its tests.
export interface StartArgs {
  browser: boolean;
  passthrough: string[];
  electronPassthrough: string[];
}
export function parseStartArgs(argv: readonly string[]): StartArgs;
export function electronBinary(electronDir?: string, env?: NodeJS.ProcessEnv): string | null;
export function decideShell(options: {
  browserFlag: boolean;
  binary: string | null;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}): { shell: 'electron' | 'browser'; reason: string | null };
export function shellCommand(options: {
  shell: 'electron' | 'browser';
  binary: string | null;
  args: StartArgs;
  execPath?: string;
  appRoot?: string;
}): [string, string[]];

// Types of scripts/parallel.mjs, for its tests.
export interface ParallelCommand {
  name: string;
  file: string;
  args: string[];
}
export interface ParallelResult {
  name: string;
  code: number;
  seconds: number;
}
export function runParallel(
  commands: ParallelCommand[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; write?: (text: string) => void },
): Promise<ParallelResult[]>;
export function npmScripts(names: string[], npm?: string): ParallelCommand[];

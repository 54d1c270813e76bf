/**
 * A TypeScript script in a child Node process (through tsx), for tests that kill main mid-work
 * and start it again: its output collected, and its end awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

export interface Child {
  process: ChildProcess;
  output: () => string;
}

/** Runs `script` with `args` from the project's root, collecting stdout and stderr. */
export function spawnScript(script: string, args: string[]): Child {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return { process: child, output: () => output };
}

/** The signal or exit code the child ended with (at once when it already has). */
export function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((r) => child.once('exit', (code, signal) => r(signal ?? code)));
}

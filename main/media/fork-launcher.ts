/**
 * Browser mode's launcher: the media process as a forked Node child (control over Node's IPC
 * channel, structured-clone serialisation). Its stdout and stderr become log lines, so main's
 * stdout still carries only its address. Electron uses a utility process instead
 * (main/electron/media-utility.ts).
 */
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { LaunchMedia, MediaChild } from './media-plane';
import { MEDIA_V8_FLAGS } from './v8-flags';

export interface ForkLauncherOptions {
  /** The built entry (out/main/media.js), or main/media/entry.ts with `execArgv: ['--import', 'tsx']`. */
  entry: string;
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export function forkLauncher(options: ForkLauncherOptions): LaunchMedia {
  return (): MediaChild => {
    const child = fork(options.entry, [], {
      // The process's own V8 flags first: a caller's (a benchmark's) come later and win.
      execArgv: [...MEDIA_V8_FLAGS, ...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => options.log(`[media ${child.pid ?? '?'}] ${line}`));
    }
    // A send to a child that just died errors asynchronously: the exit handler reports it.
    child.on('error', (err) => options.log(`[media] ${err.message}`));
    return {
      postMessage: (message) => {
        if (child.connected) child.send(message);
        else throw new Error('the media process is not connected');
      },
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.once('exit', listener),
      kill: () => void child.kill('SIGKILL'),
    };
  };
}

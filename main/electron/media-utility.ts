/**
 * Electron's launcher for the media process: an Electron utility process (Node with native
 * modules, off main's thread and out of main's process, restartable), running the same entry as
 * browser mode's forked child (out/main/media.js, which imports no electron). Control messages
 * cross `postMessage`; pages' MessagePorts are transferred with them (media-ports.ts).
 */
import { utilityProcess, type MessagePortMain } from 'electron';
import { createInterface } from 'node:readline';
import type { LaunchMedia, MediaChild } from '../media/media-plane';
import { MEDIA_V8_FLAGS } from '../media/v8-flags';

export function utilityLauncher(entry: string, log: (line: string) => void): LaunchMedia {
  return (): MediaChild => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Workbench media', stdio: 'pipe', execArgv: [...MEDIA_V8_FLAGS] });
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => log(`[media ${child.pid ?? '?'}] ${line}`));
    }
    return {
      postMessage: (message, transfer) => child.postMessage(message, (transfer ?? []) as MessagePortMain[]),
      onMessage: (listener) => void child.on('message', listener),
      // A utility process reports an exit code only; a crash shows as a non-zero one.
      onExit: (listener) => void child.once('exit', (code: number) => listener(code, null)),
      kill: () => void child.kill(),
    };
  };
}

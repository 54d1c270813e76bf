/**
 * The media process proper, loaded by entry.ts once ws's unmasking is set (out/main/media.js; plain
 * Node, no electron import). Main starts it
 * off its own event loop: a forked child in browser mode (control over Node's IPC channel), an
 * Electron utility process otherwise (control over `process.parentPort`, which also brings the
 * pages' MessagePorts). See README.md for why a process and not a worker thread.
 */
import { MediaProcess, type ControlPort, type MessagePortLike } from './media-process';
import { mediaSessionKinds } from './kinds';
import { testAudioBackend } from './test-audio-hook';
import { wsMaskActive } from '../host/ws-mask';
import { describePriority, raiseMediaPriority, watchRealtime } from './priority';

/** Electron's utility-process side (typed here: this file must not import electron). */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown; ports: MessagePortLike[] }) => void): unknown;
}

function controlPort(): ControlPort | null {
  const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
  if (parentPort) {
    return {
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data, event.ports ?? [])),
    };
  }
  if (process.send) {
    const send = process.send.bind(process);
    return {
      send: (message) => void send(message),
      onMessage: (listener) => void process.on('message', (message) => listener(message, [])),
    };
  }
  return null;
}

const control = controlPort();
if (!control) {
  process.stderr.write('The media process must be started by the workbench (it talks to main over an IPC channel).\n');
  process.exit(2);
}
// Ahead of ordinary work when the OS allows it (priority.ts): a frame is due every 20 ms. chrt
// answers later (asynchronously): the process starts serving meanwhile.
void raiseMediaPriority(process.env).then((priority) => {
  control.send({ t: 'log', line: describePriority(priority) });
  watchRealtime((line) => control.send({ t: 'log', line }));
});
// Said once either way: which unmasking the frame server's ws uses (tests read it).
void wsMaskActive().then((active) => control.send({ t: 'log', line: `[media-ws] frames unmasked ${active ? 'word-wise' : 'byte by byte (host/ws-mask.ts was not taken)'}` }));
const audioBackend = testAudioBackend(process.env, (line) => control.send({ t: 'log', line }));
const media = new MediaProcess({ control, kinds: mediaSessionKinds(), pid: process.pid, onShutdown: () => process.exit(0), ...(audioBackend ? { audioBackend } : {}) });
// Main going away (its end of the channel closes) ends us too: no orphaned audio.
process.on('disconnect', () => void media.dispose().then(() => process.exit(0)));
process.on('uncaughtException', (err) => {
  control.send({ t: 'log', line: `[media] uncaught: ${err.stack ?? err.message}`.slice(0, 4000) });
  process.exit(70);
});

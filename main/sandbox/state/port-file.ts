/**
 * The port the sandbox last listened on, kept in its state folder (`<stateDir>/port`) so a
 * restart listens there again: a public file URL handed out, a History code export or a script
 * pointing at the sandbox keep working across launches, as its key and state already do. A port
 * now taken by someone else just means a new random one (and that is remembered instead).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tightenMode } from './key-file';

/** Where the port is kept in the state folder `dir`. */
export function portFile(dir: string): string {
  return join(dir, 'port');
}

/** The remembered port, or 0 (any free one) when there is none or the file is unusable. */
export function rememberedPort(dir: string): number {
  try {
    const port = Number(readFileSync(portFile(dir), 'utf8').trim());
    return Number.isInteger(port) && port > 0 && port < 65536 ? port : 0;
  } catch {
    return 0;
  }
}

/** Remembers `port` for the next launch; best effort (a read-only folder only costs the reuse). */
export function rememberPort(dir: string, port: number, log: (line: string) => void = () => undefined): void {
  try {
    writeFileSync(portFile(dir), `${port}\n`, { mode: 0o600 });
    // The mode only applies when the file is made: one from an older build keeps its 0644 otherwise.
    tightenMode(portFile(dir), 0o600);
  } catch (err) {
    log(`sandbox state: could not remember port ${port} in ${portFile(dir)}: ${(err as Error).message}`);
  }
}

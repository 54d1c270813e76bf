/** Opens a URL in the user's default browser; failure is reported, never fatal. */
import { spawn } from 'node:child_process';

/** The platform's opener command for `url`. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  // `start` is a cmd built-in; the empty string is the window title it would otherwise take from the URL.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}

/** Launches the opener detached; calls `warn` if it cannot be started or exits with an error. */
export function openInBrowser(url: string, warn: (line: string) => void): void {
  const [cmd, args] = openerCommand(url);
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => warn(`Could not open a browser (${cmd}: ${err.message}); open the address above yourself.`));
    child.on('exit', (code) => {
      if (code) warn(`${cmd} exited with code ${code}; open the address above yourself.`);
    });
    child.unref();
  } catch (err) {
    warn(`Could not open a browser: ${err instanceof Error ? err.message : String(err)}`);
  }
}

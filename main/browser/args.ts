/** Command-line flags of the browser-mode entry: `[--port N] [--data-dir DIR] [--sandbox-port N] [--open]`. */
import { validPort } from '../sandbox/port-choice';

export interface BrowserArgs {
  port: number;
  dataDir: string | undefined;
  /** The port the built-in sandbox tries first (undefined: environment, setting, last, 4010). */
  sandboxPort: number | undefined;
  open: boolean;
}

/** Parses argv (without node and the script); throws an Error with a usage hint on bad flags. */
export function parseBrowserArgs(argv: readonly string[]): BrowserArgs {
  const out: BrowserArgs = { port: 0, dataDir: undefined, sandboxPort: undefined, open: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a whole number from 0 to 65535');
      out.port = port;
    } else if (flag === '--sandbox-port') {
      const port = validPort(value());
      if (port === null) throw new Error('--sandbox-port must be a whole number from 1024 to 65535');
      out.sandboxPort = port;
    } else if (flag === '--data-dir') {
      out.dataDir = value();
    } else if (flag === '--open') {
      out.open = true;
    } else {
      throw new Error(`unknown flag ${arg} (usage: browser.js [--port N] [--data-dir DIR] [--sandbox-port N] [--open])`);
    }
  }
  return out;
}

/**
 * `npm run sandbox -- [--port N] [--host H] [--key KEY]... [--token-delay MS] [--deferred-delay MS]
 * [--files-dir DIR | --state-dir DIR] [--max-file-bytes N]`: starts the sandbox, prints the base URL and the keys it
 * accepts (one per line) on stdout, says on stderr where the control API is, and serves until
 * Ctrl+C or SIGTERM, then closes cleanly.
 */
import { startSandbox, type SandboxOptions } from './index';

const USAGE =
  'usage: npm run sandbox -- [--port N] [--host 127.0.0.1] [--key KEY]... [--token-delay MS] [--deferred-delay MS] [--files-dir DIR | --state-dir DIR] [--max-file-bytes N] [--quiet]';

interface CliArgs {
  options: SandboxOptions;
  quiet: boolean;
}

/** Parses argv (after the script name); throws with a usage line on anything unknown. */
export function parseArgs(argv: string[]): CliArgs {
  const options: SandboxOptions = {};
  const keys: string[] = [];
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    const number = (): number => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < 0) throw new Error(`${flag} needs a non-negative integer\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--port':
        options.port = number();
        break;
      case '--host':
        options.host = value();
        break;
      case '--key':
        keys.push(value());
        break;
      case '--token-delay':
        options.tokenDelayMs = number();
        break;
      case '--deferred-delay':
        options.deferredDelayMs = number();
        break;
      case '--files-dir':
        options.filesDir = value();
        break;
      case '--state-dir':
        options.stateDir = value();
        break;
      case '--max-file-bytes':
        options.maxFileBytes = number();
        break;
      case '--quiet':
        quiet = true;
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown argument "${arg}"\n${USAGE}`);
    }
  }
  if (keys.length > 0) options.keys = keys;
  if (options.stateDir !== undefined && options.filesDir !== undefined) throw new Error(`--state-dir keeps files in DIR/files; drop --files-dir\n${USAGE}`);
  return { options, quiet };
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  const log = args.quiet ? undefined : (line: string): void => void process.stderr.write(`[sandbox] ${line}\n`);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({ ...args.options, log });
  } catch (err) {
    // A refusal (another sandbox on the state folder, a port taken) says what to do: no stack.
    process.stderr.write(`[sandbox] could not start: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  // Handlers first: a script may signal the moment it has read the URL.
  const stop = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // stdout stays the URL and the keys, one per line, for scripts that read them.
  process.stdout.write(`${sandbox.url}\n${sandbox.keys.join('\n')}\n`);
  if (!args.quiet && sandbox.controlApi) {
    process.stderr.write(
      `[sandbox] control API (same keys): POST ${sandbox.url}/sandbox/clock/advance {"seconds": N} moves the sandbox clock; GET ${sandbox.url}/sandbox/clock reads it\n`,
    );
  }
}

if (process.argv[1] && /cli\.(ts|js|mjs)$/.test(process.argv[1])) {
  void main();
}

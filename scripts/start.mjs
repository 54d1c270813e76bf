#!/usr/bin/env node
// `npm start`: builds if stale, then runs the Electron shell when it can (binary downloaded, a
// display on Linux, no --browser), else browser mode, saying why in one line on stderr.
// Flags: --browser, --port N, --data-dir DIR, --sandbox-port N, --open (passed through: --port and
// --open to browser mode only, --data-dir and --sandbox-port to either shell).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = 'usage: npm start -- [--browser] [--port N] [--data-dir DIR] [--sandbox-port N] [--open]';

/** The built-in sandbox's port as both shells accept it: a whole number from 1024 to 65535. */
function sandboxPort(value) {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(port) || port < 1024 || port > 65535) throw new Error('--sandbox-port must be a whole number from 1024 to 65535');
  return String(port);
}

/** Parses start's flags; throws with a usage hint on anything else. */
export function parseStartArgs(argv) {
  const out = { browser: false, passthrough: [], electronPassthrough: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (name === '--browser') out.browser = true;
    else if (name === '--open') out.passthrough.push(arg);
    else if (name === '--port' || name === '--data-dir' || name === '--sandbox-port') {
      const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (raw === undefined || raw === '') throw new Error(`${name} needs a value (${USAGE})`);
      // Checked here so that Electron, which would log a bad one and go on, refuses it as browser mode does.
      const value = name === '--sandbox-port' ? sandboxPort(raw) : raw;
      out.passthrough.push(name, value);
      if (name !== '--port') out.electronPassthrough.push(name, value);
    } else {
      throw new Error(`unknown flag ${arg} (${USAGE})`);
    }
  }
  return out;
}

/** The command that runs `shell` with the parsed flags: Electron on the app folder, or browser mode's entry. */
export function shellCommand({ shell, binary, args, execPath = process.execPath, appRoot = root }) {
  if (shell === 'electron') return [binary, [appRoot, ...args.electronPassthrough]];
  return [execPath, [join(appRoot, 'out', 'main', 'browser.js'), ...args.passthrough]];
}

/**
 * Path of the downloaded Electron binary, or null. Reads what `require('electron')` would,
 * without calling it: that call starts a download when the binary is missing.
 */
export function electronBinary(electronDir = join(root, 'node_modules', 'electron'), env = process.env) {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  const full = env.ELECTRON_OVERRIDE_DIST_PATH ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative) : join(electronDir, 'dist', relative);
  return existsSync(full) ? full : null;
}

/** Which shell to run, and (for browser mode) the one-line reason. */
export function decideShell({ browserFlag, binary, platform = process.platform, env = process.env }) {
  if (browserFlag) return { shell: 'browser', reason: null };
  if (!binary) return { shell: 'browser', reason: 'Electron is not available here (binary not downloaded); starting browser mode.' };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { shell: 'browser', reason: 'No display found (DISPLAY/WAYLAND_DISPLAY unset); starting browser mode.' };
  }
  return { shell: 'electron', reason: null };
}

function run(command, args, label) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`${label} failed (exit ${result.status ?? result.signal}).\n`);
    process.exit(result.status || 1);
  }
}

/** Rebuilds native modules for Electron's ABI, skipping when nothing changed since last time. */
function ensureElectronAbi(binary) {
  const marker = join(root, 'out', '.electron-abi');
  const addon = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  const fingerprint = `${binary}\n${existsSync(addon) ? statSync(addon).mtimeMs : 0}`;
  if (existsSync(marker) && readFileSync(marker, 'utf8') === fingerprint) return;
  process.stderr.write('Rebuilding native modules for Electron (npm test rebuilds them for Node)...\n');
  run(join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder'), ['install-app-deps'], 'electron-builder install-app-deps');
  writeFileSync(marker, `${binary}\n${existsSync(addon) ? statSync(addon).mtimeMs : 0}`);
}

/** Runs a child with our stdio, forwards SIGINT/SIGTERM, and exits with its code. */
function supervise(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  child.on('error', (err) => {
    process.stderr.write(`Could not start ${command}: ${err.message}\n`);
    process.exit(1);
  });
}

async function main() {
  let args;
  try {
    args = parseStartArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  run(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], 'Build');
  const binary = electronBinary();
  const { shell, reason } = decideShell({ browserFlag: args.browser, binary });
  if (shell === 'electron') {
    ensureElectronAbi(binary);
    supervise(...shellCommand({ shell, binary, args }));
    return;
  }
  if (reason) process.stderr.write(`${reason}\n`);
  const { ensureNodeAbi } = await import('./ensure-node-abi.mjs');
  if (!ensureNodeAbi()) {
    process.stderr.write('Native modules are built for another runtime; run `npm rebuild better-sqlite3 naudiodon`.\n');
    process.exit(1);
  }
  supervise(...shellCommand({ shell, binary, args }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}

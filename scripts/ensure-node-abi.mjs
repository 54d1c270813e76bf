#!/usr/bin/env node
// Makes sure the native modules (better-sqlite3, naudiodon) are built for this Node, not for
// Electron: `npm start` rebuilds them for Electron's ABI, so tests and browser mode check here
// and run `npm rebuild` when the loaded module reports a NODE_MODULE_VERSION mismatch.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE = ['better-sqlite3', 'naudiodon'];

/** True when the error says the binary was built for another ABI. */
export function isAbiMismatch(err) {
  const message = String(err?.message ?? err);
  return /NODE_MODULE_VERSION|was compiled against a different Node\.js version|invalid ELF header/.test(message);
}

/** Loads each native module (better-sqlite3's binding only loads when a database is opened). */
function probe() {
  const require = createRequire(resolve(root, 'package.json'));
  const problems = [];
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close();
  } catch (err) {
    if (isAbiMismatch(err)) problems.push('better-sqlite3');
  }
  try {
    require('naudiodon');
  } catch (err) {
    if (isAbiMismatch(err)) problems.push('naudiodon');
  }
  return problems;
}

/** Rebuilds the native modules for Node when needed; returns false when that did not help. */
export function ensureNodeAbi(log = (line) => process.stderr.write(`${line}\n`)) {
  const mismatched = probe();
  if (mismatched.length === 0) return true;
  log(`Native modules built for Electron (${mismatched.join(', ')}); rebuilding them for Node ${process.version}...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['rebuild', ...NATIVE], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) return false;
  return probe().length === 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!ensureNodeAbi()) {
    process.stderr.write('Could not rebuild the native modules for Node; run `npm rebuild better-sqlite3 naudiodon`.\n');
    process.exit(1);
  }
}

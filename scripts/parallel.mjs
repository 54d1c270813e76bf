#!/usr/bin/env node
// `node scripts/parallel.mjs typecheck lint build:if-stale`: runs those npm scripts at the same
// time and fails when any of them fails. `npm test` uses it for the checks that are each one
// single-threaded process (tsc, eslint, vite build): run one after another they left the second
// core idle for minutes of CI. Each script's output is held and printed whole when it ends, so
// two logs never interleave; a failure names the script and its exit code.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs each command ([file, args]) at once; resolves to one result per command, in the order given,
 * after all have ended (a failure does not stop the others: their errors are worth seeing too).
 */
export function runParallel(commands, { cwd = root, env = process.env, write = (text) => process.stdout.write(text) } = {}) {
  return Promise.all(
    commands.map(
      ({ name, file, args }) =>
        new Promise((done) => {
          const started = Date.now();
          const output = [];
          const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          const finish = (code, reason) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            const text = Buffer.concat(output).toString('utf8');
            write(`\n── ${name}: ${code === 0 ? 'ok' : `FAILED (${reason})`} in ${seconds} s ──\n${text}`);
            done({ name, code, seconds: Number(seconds) });
          };
          child.on('error', (err) => finish(1, err.message));
          child.on('close', (code, signal) => finish(code ?? 1, signal ? `killed by ${signal}` : `exit code ${code}`));
        }),
    ),
  );
}

/** `npm run <script>` for each name. */
export function npmScripts(names, npm = process.platform === 'win32' ? 'npm.cmd' : 'npm') {
  return names.map((name) => ({ name, file: npm, args: ['run', '--silent', name] }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  if (names.length === 0) {
    process.stderr.write('usage: node scripts/parallel.mjs <npm script> [<npm script> ...]\n');
    process.exit(2);
  }
  const results = await runParallel(npmScripts(names));
  const failed = results.filter((r) => r.code !== 0);
  if (failed.length > 0) {
    process.stderr.write(`\nparallel: ${failed.map((r) => `${r.name} failed (exit code ${r.code})`).join(', ')}\n`);
    process.exit(1);
  }
}

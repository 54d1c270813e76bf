/**
 * Runs a generated snippet the way a user would: curl through sh, Python with python3, TypeScript
 * with node + tsx from a file inside the project (so `openai` and `@anthropic-ai/sdk` resolve from
 * its node_modules). Asynchronous, because the sandbox answering it lives in the test's process.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExportLang } from '../../../shared/codegen/export';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIR = join(ROOT, 'test-results', 'snippets');
/** tsx's loader by path, so a snippet run in another folder (an upload's) still finds it. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface SnippetRun {
  stdout: string;
  stderr: string;
}

/**
 * Writes the snippet to test-results/snippets/<name> and runs it with `env` added to the
 * environment, in `cwd` (default the project root; an upload runs where its file is).
 */
export function runSnippet(name: string, lang: ExportLang, code: string, env: Record<string, string>, cwd: string = ROOT): Promise<SnippetRun> {
  mkdirSync(DIR, { recursive: true });
  const ext = lang === 'curl' ? 'sh' : lang.startsWith('python') ? 'py' : 'mts';
  const file = join(DIR, `${name}-${lang}.${ext}`);
  writeFileSync(file, code);
  const [cmd, args] =
    lang === 'curl' ? ['/bin/sh', [file]] : lang.startsWith('python') ? ['python3', [file]] : [process.execPath, ['--import', TSX, file]];
  return new Promise((done, fail) => {
    execFile(cmd, args, { cwd, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${file} failed: ${error.message}\n${stderr}\n${stdout}`));
      else done({ stdout, stderr });
    });
  });
}

/** The text deltas in an SSE transcript (what curl prints for a stream), joined. */
export function sseText(transcript: string, delta: (event: any) => string | undefined): string {
  let text = '';
  for (const line of transcript.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') break;
    text += delta(JSON.parse(data)) ?? '';
  }
  return text;
}

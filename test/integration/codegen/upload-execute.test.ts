/**
 * Code export of an upload, executed: the curl, Python (standard library) and TypeScript (fetch
 * and the official SDK's files.create) snippets for a recorded `files.upload` run each upload the
 * file from their folder to the sandbox, which then lists it with the recorded expiry. The Python
 * SDK snippet is not run: the `openai` Python package is not installable here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCode, type ExportLang } from '../../../shared/codegen/export';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { FileList } from '../../../shared/wire/files';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet } from './run-snippet';

const KEY = 'sk-codegen-upload-01';
const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
let sandbox: SandboxServer;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY], now: () => NOW });
  dir = mkdtempSync(join(tmpdir(), 'wb-upload-snippet-'));
  writeFileSync(join(dir, 'field notes.txt'), 'herons wade in the shallows\n');
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function recorded(): CapturedRequest {
  return {
    method: 'POST',
    url: `${sandbox.url}/v1/files`,
    headers: { accept: 'application/json', 'content-type': 'multipart/form-data', authorization: 'Bearer ***', 'user-agent': 'InferenceWorkbench/0.1' },
    body: {
      multipart: [
        { name: 'expires_after', value: '7200' },
        { name: 'file', filename: 'field notes.txt', contentType: 'text/plain', bytes: 28 },
      ],
    },
  };
}

describe('upload snippets against the sandbox', () => {
  for (const lang of ['curl', 'python', 'typescript', 'typescript-sdk'] as ExportLang[]) {
    it(`${lang} uploads the file with its expiry`, async () => {
      const result = exportCode(recorded(), { lang });
      if (!('code' in result)) throw new Error(result.unsupported);
      const run = await runSnippet(`upload-${lang}`, lang, result.code, { WORKBENCH_API_KEY: KEY }, dir);
      const id = /file_[0-9a-f-]{36}/.exec(run.stdout)?.[0];
      expect(id, run.stdout).toBeDefined();
      const listed = (await (await fetch(`${sandbox.url}/v1/files?filter=${encodeURIComponent(`file_id = "${id}"`)}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as FileList;
      expect(listed.data).toEqual([expect.objectContaining({ id, filename: 'field notes.txt', bytes: 28, expires_at: Math.floor(NOW / 1000) + 7200 })]);
    });
  }
});

/**
 * Code export of an upload, executed: the curl, Python (standard library) and TypeScript (fetch
 * and the official SDK's files.create) snippets for a recorded `files.upload` run each upload the
 * file from their folder to the sandbox, which then lists it with the recorded expiry. The Python
 * SDK snippet is not run: the `openai` Python package is not installable here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * A name with quotes, accents and a semicolon, as each snippet sends it: a server of the test's own
 * reads the part's filename parameter and decodes it as the HTML standard encodes it (%22, %0D,
 * %0A), so the name must arrive whole and escaped the browsers' way. (The sandbox's own decoding
 * is its engineers'; this checks what the exported code puts on the wire.)
 */
describe('upload snippets send a quoted, accented name as browsers do', () => {
  const NAME = 'résumé "final";v2.txt';
  let server: Server;
  let url: string;
  const seen: string[] = [];

  beforeAll(async () => {
    writeFileSync(join(dir, NAME), 'herons\n');
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const head = /Content-Disposition: form-data; name="file"; filename="([^"\r\n]*)"/.exec(Buffer.concat(chunks).toString('utf8'));
        seen.push(head?.[1] ?? '(no filename parameter)');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'file_00000000-0000-0000-0000-000000000001', object: 'file', bytes: 7, created_at: 1, expires_at: null, filename: 'x', purpose: '' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  for (const lang of ['curl', 'python', 'typescript', 'typescript-sdk'] as ExportLang[]) {
    it(`${lang} sends "${NAME}" with its quotes as %22`, async () => {
      const request: CapturedRequest = { ...recorded(), url: `${url}/v1/files`, body: { multipart: [{ name: 'file', filename: NAME, contentType: 'text/plain', bytes: 7 }] } };
      const result = exportCode(request, { lang });
      if (!('code' in result)) throw new Error(result.unsupported);
      seen.length = 0;
      await runSnippet(`upload-name-${lang}`, lang, result.code, { WORKBENCH_API_KEY: KEY }, dir);
      expect(seen).toEqual(['résumé %22final%22;v2.txt']);
      expect(seen[0]!.replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n')).toBe(NAME);
    });
  }
});

/**
 * The voice TypeScript snippets type-check under `strict` (with Node's and ws's types), so they
 * paste into a typed project as they run under tsx; the Python ones compile (the socket loops
 * cannot run here: no `websockets`). One snippet per exporter, with every option that changes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { CodeExporter } from '../../../shared/families/types';
import { VOICE_CODE } from '../../../shared/codegen/voice';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIR = join(ROOT, 'test-results', 'voice-typecheck');
const HOST = 'http://127.0.0.1:4010';
const headers = { authorization: 'Bearer ***', 'x-upstream-token': '***' };

const cases: Array<[string, CodeExporter, CapturedRequest]> = [
  ['tts', VOICE_CODE.tts, { method: 'POST', url: `${HOST}/v1/tts`, headers, body: { text: 'Hi', language: 'en', with_timestamps: true } }],
  ['tts-socket', VOICE_CODE.ttsSocket, { method: 'GET', url: `${HOST.replace('http', 'ws')}/v1/tts?codec=wav`, headers, body: { text: 'Hi' } }],
  ['stt-file', VOICE_CODE.stt, { method: 'POST', url: `${HOST}/v1/stt`, headers, body: { multipart: [{ name: 'language', value: 'en' }, { name: 'file', filename: 'a.wav', contentType: 'audio/wav', bytes: 1 }] } }],
  ['stt-url', VOICE_CODE.stt, { method: 'POST', url: `${HOST}/v1/stt`, headers, body: { multipart: [{ name: 'url', value: 'http://127.0.0.1/a.wav' }] } }],
  ['stt-socket', VOICE_CODE.sttSocket, { method: 'GET', url: `${HOST.replace('http', 'ws')}/v1/stt?multichannel=true&channels=2`, headers, body: null }],
  ['voice-audio', VOICE_CODE.voiceAudio, { method: 'GET', url: `${HOST}/v1/custom-voices/x/audio`, headers, body: null }],
  ['voice-patch', VOICE_CODE.json, { method: 'PATCH', url: `${HOST}/v1/custom-voices/x`, headers, body: { name: 'N', description: null } }],
  ['voice-list', VOICE_CODE.json, { method: 'GET', url: `${HOST}/v1/custom-voices?limit=10`, headers, body: null }],
];

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('voice snippets are well-formed programs', () => {
  it('TypeScript: tsc --strict finds no error in any of them', () => {
    mkdirSync(DIR, { recursive: true });
    const files = cases.map(([name, exporter, request]) => {
      const file = join(DIR, `${name}.mts`);
      writeFileSync(file, code(exporter.typescript(request, {})));
      return file;
    });
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node,ws', ...files];
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, ...args], { cwd: DIR, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 120_000);

  it('Python: every snippet compiles', () => {
    mkdirSync(DIR, { recursive: true });
    for (const [name, exporter, request] of cases) {
      const file = join(DIR, `${name}.py`);
      writeFileSync(file, code(exporter.python(request, {})));
      execFileSync('python3', ['-m', 'py_compile', file]);
    }
  });
});

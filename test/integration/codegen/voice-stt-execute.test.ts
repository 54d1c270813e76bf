/**
 * Code export of transcription, executed as shown: the curl, Python (standard library) and
 * TypeScript snippets of a recorded `POST /v1/stt` (a file sent last, or a `url`) print the same
 * transcript as a direct request; the TypeScript (ws) loop of a recorded WebSocket `/v1/stt`
 * session streams a WAV in paced 20 ms frames and prints partials, finals and one
 * `transcript.done` per channel with the file's duration. The Python loop needs `websockets`: it
 * runs only where that is installed; elsewhere it is compiled (a syntax check) but not run.
 * Clips are made by espeak-ng and ffmpeg (system tools the tests may use).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { ExportLang } from '../../../shared/families/types';
import { STT_EXPORTER } from '../../../shared/codegen/voice-stt';
import { STT_SOCKET_EXPORTER } from '../../../shared/codegen/voice-stt-socket';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet } from './run-snippet';

const KEY = 'sk-codegen-voice-stt-01';
let sandbox: SandboxServer;
let dir: string;
let files: Server;
let filesUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
  dir = mkdtempSync(join(tmpdir(), 'wb-stt-snippet-'));
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'raw.wav'), 'Herons wade in the shallows. They wait for fish at dawn.']);
  execFileSync('espeak-ng', ['-v', 'en+f4', '-p', '90', '-w', join(dir, 'high.wav'), 'The river runs cold.']);
  execFileSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'raw.wav'), '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', join(dir, 'field notes.wav')]);
  // Two channels, a different voice on each.
  execFileSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'raw.wav'), '-i', join(dir, 'high.wav'), '-filter_complex', '[0:a][1:a]amerge=inputs=2,aresample=16000', '-ac', '2', '-c:a', 'pcm_s16le', join(dir, 'stereo.wav')]);
  files = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'audio/wav' });
    res.end(readFileSync(join(dir, 'field notes.wav')));
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
  filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}/clip.wav`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((r) => files.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

/** Exact duration of a WAV per ffprobe. */
function seconds(file: string): number {
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim());
}

async function direct(form: FormData): Promise<{ text: string; duration: number; words: unknown[] }> {
  const res = await fetch(`${sandbox.url}/v1/stt`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { text: string; duration: number; words: unknown[] };
}

describe('POST /v1/stt snippets against the sandbox', () => {
  const fields = [
    { name: 'language', value: 'en' },
    { name: 'diarize', value: 'true' },
    { name: 'keyterm', value: 'heron' },
    { name: 'keyterm', value: 'shallows' },
  ];
  const withFile: CapturedRequest = {
    method: 'POST',
    url: `${sandbox?.url ?? 'http://127.0.0.1:1'}/v1/stt`,
    headers: { authorization: 'Bearer ***', 'content-type': 'multipart/form-data' },
    body: { multipart: [...fields, { name: 'file', filename: 'field notes.wav', contentType: 'audio/wav', bytes: 1 }] },
  };

  for (const lang of ['curl', 'python', 'typescript'] as ExportLang[]) {
    it(`${lang} sends the fields then the file last and prints the transcript`, async () => {
      const request = { ...withFile, url: `${sandbox.url}/v1/stt` };
      const run = await runSnippet(`voice-stt-${lang}`, lang, code(STT_EXPORTER[lang](request, {})), { WORKBENCH_API_KEY: KEY }, dir);
      const form = new FormData();
      for (const f of fields) form.append(f.name, f.value);
      form.append('file', new Blob([readFileSync(join(dir, 'field notes.wav'))], { type: 'audio/wav' }), 'field notes.wav');
      const expected = await direct(form);
      const printed = JSON.parse(run.stdout) as typeof expected;
      expect(printed.text.length).toBeGreaterThan(0);
      expect(printed).toEqual(expected);
      expect(printed.duration).toBeCloseTo(seconds(join(dir, 'field notes.wav')), 2);
    });

    it(`${lang} sends a url instead of a file`, async () => {
      const request: CapturedRequest = { ...withFile, url: `${sandbox.url}/v1/stt`, body: { multipart: [{ name: 'language', value: 'en' }, { name: 'url', value: filesUrl }] } };
      const run = await runSnippet(`voice-stt-url-${lang}`, lang, code(STT_EXPORTER[lang](request, {})), { WORKBENCH_API_KEY: KEY }, dir);
      const form = new FormData();
      form.append('language', 'en');
      form.append('url', filesUrl);
      expect(JSON.parse(run.stdout)).toEqual(await direct(form));
    });
  }
});

const hasWebsockets = (() => {
  try {
    execFileSync('python3', ['-c', 'import websockets.sync.client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

function socketRequest(query: string, filename?: string): CapturedRequest {
  return { method: 'GET', url: `${sandbox.url.replace('http', 'ws')}/v1/stt?${query}`, headers: { authorization: 'Bearer ***' }, body: filename ? { filename } : null };
}

describe('WebSocket /v1/stt loops against the sandbox', () => {
  for (const lang of ['typescript', 'python'] as ExportLang[]) {
    it.skipIf(lang === 'python' && !hasWebsockets)(`${lang} streams the WAV paced and prints partials, finals and transcript.done`, async () => {
      const snippet = code(STT_SOCKET_EXPORTER[lang](socketRequest('sample_rate=16000&encoding=pcm&interim_results=true&language=en', 'field notes.wav'), {}));
      expect(snippet).not.toContain(KEY);
      const started = performance.now();
      const run = await runSnippet(`voice-stt-socket-${lang}`, lang, snippet, { WORKBENCH_API_KEY: KEY }, dir);
      // Paced at real time: it cannot finish sooner than the audio lasts (a lower bound only, which load cannot break).
      expect((performance.now() - started) / 1000).toBeGreaterThan(seconds(join(dir, 'field notes.wav')) * 0.95);
      const out = run.stdout.trim().split('\n');
      expect(out.some((l) => l.startsWith('partial: '))).toBe(true);
      const finals = out.filter((l) => l.startsWith('final'));
      expect(finals.length).toBeGreaterThan(0);
      expect(finals.join(' ')).toMatch(/\w+/);
      // Partials come before the first final; transcript.done comes last, with the file's exact duration.
      expect(out.findIndex((l) => l.startsWith('partial: '))).toBeLessThan(out.findIndex((l) => l.startsWith('final')));
      const done = /^done: .* duration ([\d.]+) s$/.exec(out.at(-1) ?? '');
      expect(done, run.stdout).not.toBeNull();
      expect(Number(done![1])).toBeCloseTo(seconds(join(dir, 'field notes.wav')), 2);
    });
  }

  it('typescript runs a live transcription as the live session records it (the query as a JSON body, no file name)', async () => {
    writeFileSync(join(dir, 'audio.wav'), readFileSync(join(dir, 'field notes.wav')));
    const request: CapturedRequest = {
      method: 'GET',
      url: `${sandbox.url.replace('http', 'ws')}/v1/stt`,
      headers: {},
      body: JSON.stringify({ sample_rate: 16000, encoding: 'pcm', interim_results: true, language: 'en', diarize: true }),
    };
    const run = await runSnippet('voice-stt-socket-live', 'typescript', code(STT_SOCKET_EXPORTER.typescript(request, {})), { WORKBENCH_API_KEY: KEY }, dir);
    const out = run.stdout.trim().split('\n');
    // interim_results=true reached the service (it is off by default): partials came.
    expect(out.some((l) => l.startsWith('partial: '))).toBe(true);
    expect(out.some((l) => l.startsWith('final'))).toBe(true);
    expect(out.at(-1)).toMatch(/^done: /);
  });

  it('python loops compile (run where websockets is installed)', () => {
    const file = join(dir, 'compile-check.py');
    writeFileSync(file, code(STT_SOCKET_EXPORTER.python(socketRequest('sample_rate=16000&multichannel=true&channels=2'), {})));
    execFileSync('python3', ['-m', 'py_compile', file]);
  });

  it('typescript prints one transcript.done per channel of a multichannel session', async () => {
    writeFileSync(join(dir, 'audio.wav'), readFileSync(join(dir, 'stereo.wav')));
    const run = await runSnippet('voice-stt-socket-stereo', 'typescript', code(STT_SOCKET_EXPORTER.typescript(socketRequest('sample_rate=16000&encoding=pcm&multichannel=true&channels=2&language=en'), {})), { WORKBENCH_API_KEY: KEY }, dir);
    // No recorded file name: a command-line argument would give it; the default is audio.wav, so copy.
    const dones = run.stdout.split('\n').filter((l) => l.startsWith('done: '));
    expect(dones.map((l) => /\[channel (\d)\]/.exec(l)?.[1]).sort()).toEqual(['0', '1']);
  });

  it('typescript refuses a WAV at another rate and says how to convert it', async () => {
    const snippet = code(STT_SOCKET_EXPORTER.typescript(socketRequest('sample_rate=16000&encoding=pcm', 'raw.wav'), {}));
    await expect(runSnippet('voice-stt-socket-rate', 'typescript', snippet, { WORKBENCH_API_KEY: KEY }, dir)).rejects.toThrow(/raw\.wav is 22050 Hz, 1 channel\(s\), 16-bit; this session takes pcm at 16000 Hz, 1 channel\(s\): ffmpeg -i raw\.wav -ar 16000 -ac 1/);
  });

  it('an Opus session and curl say why they have no loop', () => {
    expect(STT_SOCKET_EXPORTER.typescript(socketRequest('encoding=opus'), {})).toEqual({ unsupported: expect.stringMatching(/Opus/) });
    expect(STT_SOCKET_EXPORTER.curl(socketRequest(''), {})).toEqual({ unsupported: expect.stringMatching(/curl cannot/) });
  });
});

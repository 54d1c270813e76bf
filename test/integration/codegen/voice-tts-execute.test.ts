/**
 * Code export of speech, executed as shown: the curl, Python (standard library) and TypeScript
 * snippets of a recorded `POST /v1/tts`, and the TypeScript (ws) loop of a recorded WebSocket
 * `/v1/tts` session, each run against the sandbox in a folder of its own; the file each writes must
 * be audio ffprobe reads, as long as the service says (REST) or as the same text spoken (socket).
 * The Python socket loop needs the `websockets` package: it runs only where that is installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedRequest } from '../../../shared/contract/runs';
import type { ExportLang } from '../../../shared/families/types';
import { TTS_EXPORTER } from '../../../shared/codegen/voice-tts';
import { TTS_SOCKET_EXPORTER } from '../../../shared/codegen/voice-tts-socket';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet } from './run-snippet';

const KEY = 'sk-codegen-voice-tts-01';
const TEXT = 'The heron waits in the reeds at dawn.';
let sandbox: SandboxServer;
const dirs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY] });
});
afterAll(async () => {
  await sandbox.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'wb-voice-snippet-'));
  dirs.push(d);
  return d;
}

/** What ffprobe makes of a file: its format name and duration in seconds. */
function probe(file: string, raw?: string[]): { format: string; duration: number } {
  const out = execFileSync('ffprobe', ['-v', 'error', ...(raw ?? []), '-show_entries', 'format=format_name,duration', '-of', 'json', file], { encoding: 'utf8' });
  const format = JSON.parse(out).format as { format_name: string; duration: string };
  return { format: format.format_name, duration: Number(format.duration) };
}

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

function restRequest(body: Record<string, unknown>): CapturedRequest {
  return { method: 'POST', url: `${sandbox.url}/v1/tts`, headers: { 'content-type': 'application/json', authorization: 'Bearer ***' }, body };
}

describe('POST /v1/tts snippets against the sandbox', () => {
  const cases: Array<[ExportLang, Record<string, unknown>, string, string]> = [
    ['curl', { text: TEXT, voice_id: 'eve', language: 'en', output_format: { codec: 'mp3', sample_rate: 24000, bit_rate: 64000 } }, 'speech.mp3', 'mp3'],
    ['python', { text: TEXT, voice_id: 'rex', language: 'en', output_format: { codec: 'wav', sample_rate: 16000 }, with_timestamps: true }, 'speech.wav', 'wav'],
    ['typescript', { text: TEXT, voice_id: 'ara', language: 'en', output_format: { codec: 'mp3', sample_rate: 44100, bit_rate: 128000 } }, 'speech.mp3', 'mp3'],
    ['python', { text: TEXT, voice_id: 'sal', language: 'en', output_format: { codec: 'mp3', sample_rate: 22050, bit_rate: 32000 } }, 'speech.mp3', 'mp3'],
    ['typescript', { text: TEXT, voice_id: 'leo', language: 'en', output_format: { codec: 'wav', sample_rate: 48000 } }, 'speech.wav', 'wav'],
  ];
  for (const [lang, body, file, format] of cases) {
    it(`${lang} writes ${file} (${(body.output_format as { codec: string }).codec}) as long as the service says`, async () => {
      const cwd = folder();
      await runSnippet(`voice-tts-${lang}-${String(body.voice_id)}`, lang, code(TTS_EXPORTER[lang](restRequest(body), {})), { WORKBENCH_API_KEY: KEY }, cwd);
      // The service's own answer to the same body, for the duration it states.
      const direct = (await (await fetch(`${sandbox.url}/v1/tts`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { duration: number };
      const probed = probe(join(cwd, file));
      expect(probed.format).toBe(format);
      expect(probed.duration).toBeGreaterThan(1);
      expect(Math.abs(probed.duration - direct.duration)).toBeLessThan(0.1);
    });
  }

  it('python writes raw audio answered as audio/mpeg under its type (no JSON envelope)', async () => {
    // A server of the test's own answering raw bytes, as the live service was seen to.
    const mp3 = Buffer.from(((await (await fetch(`${sandbox.url}/v1/tts`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: TEXT, language: 'en' }) })).json()) as { audio: string }).audio, 'base64');
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'audio/mpeg' });
        res.end(mp3);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      for (const lang of ['curl', 'python', 'typescript'] as ExportLang[]) {
        const cwd = folder();
        // Recorded as wav: the answer's Content-Type decides the name.
        const request = { ...restRequest({ text: TEXT, language: 'en', output_format: { codec: lang === 'curl' ? 'mp3' : 'wav' } }), url: `http://127.0.0.1:${port}/v1/tts` };
        await runSnippet(`voice-tts-raw-${lang}`, lang, code(TTS_EXPORTER[lang](request, {})), { WORKBENCH_API_KEY: KEY }, cwd);
        expect(readFileSync(join(cwd, 'speech.mp3')).equals(mp3), lang).toBe(true);
      }
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  for (const lang of ['curl', 'python', 'typescript'] as ExportLang[]) {
    it(`${lang} fails with the service's own message for an unknown voice`, async () => {
      const body = { text: TEXT, voice_id: 'nobody-here', language: 'en' };
      const res = await fetch(`${sandbox.url}/v1/tts`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      // The service-native error body: { code, error: <message> }.
      const message = ((await res.json()) as { error: string }).error;
      expect(message).toMatch(/nobody-here/);
      await expect(runSnippet(`voice-tts-unknown-${lang}`, lang, code(TTS_EXPORTER[lang](restRequest(body), {})), { WORKBENCH_API_KEY: KEY }, folder())).rejects.toThrow(message);
    });
  }

  it('the SDK tabs say why they have no snippet', () => {
    expect(TTS_EXPORTER['python-sdk'](restRequest({ text: TEXT, language: 'en' }), {})).toEqual({ unsupported: expect.stringMatching(/no voice methods/) });
  });
});

const hasWebsockets = (() => {
  try {
    execFileSync('python3', ['-c', 'import websockets.sync.client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('WebSocket /v1/tts loops against the sandbox', () => {
  function socketRequest(query: string, chunks: string[]): CapturedRequest {
    return {
      method: 'GET',
      url: `${sandbox.url.replace('http', 'ws')}/v1/tts?${query}`,
      headers: { authorization: 'Bearer ***' },
      body: { messages: [...chunks.map((delta) => ({ type: 'text.delta', delta })), { type: 'text.done' }] },
    };
  }
  const CHUNKS = ['The heron waits ', 'in the reeds ', 'at dawn.'];

  for (const lang of ['typescript', 'python'] as ExportLang[]) {
    it.skipIf(lang === 'python' && !hasWebsockets)(`${lang} streams the chunks and writes every audio.delta to a playable file`, async () => {
      const cwd = folder();
      const request = socketRequest('voice=eve&language=en&codec=mp3&sample_rate=24000&bit_rate=64000', CHUNKS);
      const snippet = code(TTS_SOCKET_EXPORTER[lang](request, {}));
      expect(snippet).not.toContain(KEY);
      const run = await runSnippet(`voice-tts-socket-${lang}`, lang, snippet, { WORKBENCH_API_KEY: KEY }, cwd);
      expect(run.stdout).toMatch(/audio\.done/);
      const file = join(cwd, 'speech.mp3');
      expect(Number(/saved speech\.mp3 (\d+) bytes/.exec(run.stdout)?.[1])).toBe(statSync(file).size);
      const probed = probe(file);
      expect(probed.format).toBe('mp3');
      // The same words over REST: the streamed speech is about as long.
      const direct = (await (await fetch(`${sandbox.url}/v1/tts`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ text: CHUNKS.join(''), language: 'en', voice_id: 'eve' }) })).json()) as { duration: number };
      expect(probed.duration).toBeGreaterThan(direct.duration * 0.8);
      expect(probed.duration).toBeLessThan(direct.duration * 1.25);
    });
  }

  it('typescript opens the socket on $WORKBENCH_BASE_URL (an http root) in place of the recorded one', async () => {
    const cwd = folder();
    // Recorded on a connection that is gone: the variable names the sandbox's http root.
    const request = { ...socketRequest('voice=eve&language=en&codec=wav&sample_rate=16000', ['Reeds.']), url: 'ws://127.0.0.1:9/v1/tts?voice=eve&language=en&codec=wav&sample_rate=16000' };
    const run = await runSnippet('voice-tts-socket-base', 'typescript', code(TTS_SOCKET_EXPORTER.typescript(request, {})), { WORKBENCH_API_KEY: KEY, WORKBENCH_BASE_URL: `${sandbox.url}/` }, cwd);
    expect(run.stdout).toMatch(/audio\.done/);
    expect(probe(join(cwd, 'speech.wav')).format).toBe('wav');
  });

  it('typescript writes raw 16-bit PCM that ffprobe reads at the recorded rate', async () => {
    const cwd = folder();
    await runSnippet('voice-tts-socket-pcm', 'typescript', code(TTS_SOCKET_EXPORTER.typescript(socketRequest('voice=sal&language=en&codec=pcm&sample_rate=16000', ['Reeds ', 'and water.']), {})), { WORKBENCH_API_KEY: KEY }, cwd);
    const file = join(cwd, 'speech.pcm');
    const probed = probe(file, ['-f', 's16le', '-ar', '16000', '-ac', '1']);
    expect(probed.duration).toBeCloseTo(statSync(file).size / 32000, 2);
    expect(probed.duration).toBeGreaterThan(0.5);
  });
});

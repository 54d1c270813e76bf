/**
 * Code export of a realtime session, executed as shown against the embedded sandbox: the
 * TypeScript program (ws) mints a client secret, connects with it, updates the session, completes
 * a text turn (with a function call answered by its stub) and an audio turn, and writes the
 * answer as a WAV that ffprobe reads and that is not silence. The Python program needs
 * `websockets`, which cannot be installed here: it is compiled, and run with a small
 * standard-library stand-in for `websockets.sync.client` (py-websockets-shim/), so what it sends
 * is compared, message by message, with what the TypeScript program sent (both through a
 * recording relay in front of the sandbox).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeSessionCode } from '../../../shared/codegen/realtime-code';
import type { RealtimeCallInputDraft } from '../../../shared/realtime-call/input';
import { startSandbox, type SandboxServer } from '../../../main/sandbox/index';
import { runSnippet } from './run-snippet';
import { startRelay, type Relay, type Sent } from './ws-relay';

const KEY = 'sk-codegen-realtime-01';
const SHIM = resolve(import.meta.dirname, 'py-websockets-shim');
let sandbox: SandboxServer;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ tokenDelayMs: 0, keys: [KEY], realtime: { audioLeadMs: Infinity } });
  dir = mkdtempSync(join(tmpdir(), 'wb-rt-snippet-'));
  execFileSync('espeak-ng', ['-v', 'en-us', '-w', join(dir, 'raw.wav'), 'Could you tell me the opening hours of the library?']);
  execFileSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'raw.wav'), '-ar', '24000', '-ac', '1', '-c:a', 'pcm_s16le', join(dir, 'question.wav')]);
  execFileSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'raw.wav'), '-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', join(dir, 'question-ulaw.wav')]);
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function code(result: { code: string } | { unsupported: string }): string {
  if (!('code' in result)) throw new Error(result.unsupported);
  return result.code;
}

/** ffprobe's view of a WAV, and its loudness (RMS of the samples decoded to 16-bit). */
function inspect(file: string): { codec: string; rate: number; seconds: number; rms: number } {
  const [codec, rate, seconds] = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate:format=duration', '-of', 'csv=p=0', file], { encoding: 'utf8' })
    .trim()
    .split(/[\n,]/);
  const pcm = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-']);
  let sum = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
  return { codec: codec!, rate: Number(rate), seconds: Number(seconds), rms: Math.sqrt(sum / (pcm.length / 2)) };
}

/** A call's input as the console has it: push-to-talk, a tool with a saved reply and one without. */
const weather: RealtimeCallInputDraft = {
  model: 'svc-voice-latest',
  voice: 'ara',
  instructions: 'You are a concise front-desk assistant.',
  turnDetection: null,
  formats: { input: { type: 'audio/pcm', rate: 24000 }, output: { type: 'audio/pcm', rate: 24000 } },
  tools: [
    { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    { name: 'book_table', description: 'Books a table', parameters: { type: 'object', properties: { people: { type: 'integer' } } } },
  ],
  autoReplies: { get_weather: { output: '{"temp_c":21,"sky":"clear"}' } },
};
const extras = { prompt: 'What is the get weather answer for Lisbon today?', audioFile: 'question.wav' };

/** What a program sent, with the secret in the socket path made comparable. */
function normalise(sent: Sent[]): Sent[] {
  return sent.map((s) => ({ ...s, path: s.path.replace(/cs-sandbox-[0-9a-f]+/g, '<secret>') }));
}

describe('realtime session code against the sandbox', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startRelay(sandbox.url);
  });
  afterAll(() => relay.close());
  let tsSent: Sent[] = [];

  it('TypeScript: client secret, session.update, a text turn with a function call, an audio turn written as a WAV', async () => {
    const snippet = code(realtimeSessionCode(weather, 'typescript', { baseUrl: relay.url, ...extras }));
    expect(snippet).not.toContain(KEY);
    relay.sent.length = 0;
    const run = await runSnippet('realtime-manual', 'typescript', snippet, { WORKBENCH_API_KEY: KEY }, dir);
    tsSent = normalise(relay.sent.splice(0));
    const out = run.stdout.trim().split('\n');
    expect(out[0]).toMatch(/^client secret valid until \d{4}-/);
    // The text turn asked for the tool: the saved reply went back and the model spoke about it.
    expect(out.find((l) => l.startsWith('tool get_weather('))).toMatch(/^tool get_weather\(\{"city":.*\) -> \{"temp_c":21,"sky":"clear"\}$/);
    expect(out.find((l) => l.startsWith('text turn: '))).toMatch(/get weather tool says: temp c 21, sky clear/);
    const audioTurn = out.find((l) => l.startsWith('audio turn: '));
    expect(audioTurn).toMatch(/I heard \d+\.\d seconds of your audio/);
    // What went out: the mint (with the key), then the socket's messages in order.
    expect(tsSent[0]).toEqual({ kind: 'http', path: 'POST /v1/realtime/client_secrets', body: { expires_after: { seconds: 600 } } });
    const types = tsSent.slice(1).map((s) => (s.body as { type: string }).type);
    expect(types.slice(0, 5)).toEqual(['session.update', 'conversation.item.create', 'response.create', 'conversation.item.create', 'response.create']);
    expect(types.slice(-2)).toEqual(['input_audio_buffer.commit', 'response.create']);
    // Every 20 ms chunk of the file (24 kHz 16-bit: 960 bytes), in order.
    const appends = tsSent.filter((s) => (s.body as { type: string }).type === 'input_audio_buffer.append');
    const question = inspect(join(dir, 'question.wav'));
    expect(appends.length).toBe(Math.ceil((question.seconds * 24000 * 2) / 960));
    const answer = inspect(join(dir, 'answer.wav'));
    expect(answer).toMatchObject({ codec: 'pcm_s16le', rate: 24000 });
    expect(answer.seconds).toBeGreaterThan(1);
    expect(answer.rms).toBeGreaterThan(300);
  }, 90_000);

  it('Python: compiles, and sends exactly what the TypeScript program sent', async () => {
    const snippet = code(realtimeSessionCode(weather, 'python', { baseUrl: relay.url, ...extras }));
    expect(snippet).not.toContain(KEY);
    const file = join(dir, 'realtime.py');
    writeFileSync(file, snippet);
    execFileSync('python3', ['-m', 'py_compile', file]);
    expect(tsSent.length).toBeGreaterThan(0);
    rmSync(join(dir, 'answer.wav'), { force: true });
    relay.sent.length = 0;
    const run = await runSnippet('realtime-manual', 'python', snippet, { WORKBENCH_API_KEY: KEY, PYTHONPATH: SHIM }, dir);
    expect(normalise(relay.sent.splice(0))).toEqual(tsSent);
    expect(run.stdout).toMatch(/^text turn: .*get weather tool says: temp c 21, sky clear/m);
    const answer = inspect(join(dir, 'answer.wav'));
    expect(answer.rms).toBeGreaterThan(300);
  }, 90_000);

  it('TypeScript: server VAD on µ-law 8 kHz ends the spoken turn itself, and the answer is a µ-law WAV', async () => {
    const session: RealtimeCallInputDraft = {
      voice: 'rex',
      turnDetection: { type: 'server_vad', silence_duration_ms: 400 },
      formats: { input: { type: 'audio/pcmu' }, output: { type: 'audio/pcmu' } },
    };
    relay.sent.length = 0;
    const run = await runSnippet('realtime-vad', 'typescript', code(realtimeSessionCode(session, 'typescript', { baseUrl: relay.url, audioFile: 'question-ulaw.wav' })), { WORKBENCH_API_KEY: KEY }, dir);
    const sent = relay.sent.splice(0);
    expect(sent.some((s) => (s.body as { type?: string }).type === 'input_audio_buffer.commit')).toBe(false);
    expect(run.stdout).toMatch(/^audio turn: I heard \d+\.\d seconds/m);
    const answer = inspect(join(dir, 'answer.wav'));
    expect(answer).toMatchObject({ codec: 'pcm_mulaw', rate: 8000 });
    expect(answer.rms).toBeGreaterThan(300);
  }, 90_000);

  it('a WAV in another format is refused with the ffmpeg line that converts it', async () => {
    const run = runSnippet('realtime-wrong', 'typescript', code(realtimeSessionCode(weather, 'typescript', { baseUrl: relay.url, audioFile: 'question-ulaw.wav' })), { WORKBENCH_API_KEY: KEY }, dir);
    await expect(run).rejects.toThrow(/question-ulaw.wav is format 7, 1 channel\(s\), 8000 Hz, 8-bit; this session takes 16-bit PCM, 24000 Hz, mono: ffmpeg -i question-ulaw.wav -ar 24000 -ac 1 -c:a pcm_s16le input.wav/);
  });
});

describe('realtime session code is well-formed', () => {
  it('TypeScript: tsc --strict finds no error (with Node and ws types)', () => {
    const tcDir = join(resolve(import.meta.dirname, '../../..'), 'test-results', 'realtime-typecheck');
    mkdirSync(tcDir, { recursive: true });
    const files = [weather, { turnDetection: { type: 'server_vad' as const }, formats: { input: { type: 'audio/pcmu' as const } } }].map((session, i) => {
      const file = join(tcDir, `realtime-${i}.mts`);
      writeFileSync(file, code(realtimeSessionCode(session, 'typescript', {})));
      return file;
    });
    const tsc = resolve(import.meta.dirname, '../../../node_modules/typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node,ws', ...files], { cwd: tcDir, encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    rmSync(tcDir, { recursive: true, force: true });
    expect(output).toBe('');
  }, 120_000);
});

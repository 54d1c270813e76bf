/**
 * Code export of a recorded live transcription (WebSocket `/v1/stt`, wire-notes 4.2): open the
 * socket with the recorded query, wait for `transcript.created`, stream an audio file in 20 ms
 * binary frames paced at real time (as a microphone would), print partials and finals as they
 * come, send `audio.done` and wait for one `transcript.done` per channel. The audio is a WAV file
 * (its PCM is sent; its rate and channels must be the session's, else the snippet says how to
 * convert it) or, for `mulaw`/`alaw`, a raw file in that encoding. The file name is the recorded
 * one when the body carries `{ filename }`, else `audio.wav`; a command-line argument replaces it.
 * Python uses `websockets` (pip install websockets), TypeScript `ws` (npm install ws).
 */
import type { CapturedRequest } from '../contract/runs';
import type { CodeExporter, ExportResult } from '../families/types';
import { pyLiteral, stringLiteral } from './literals';
import type { CodegenOptions } from './request-parts';
import { inComment, lines, NO_VOICE_SDK, pyHeaderLines, pyWsUrl, queryOf, rootAndRest, socketHeader, tsHeaderLines, tsWsUrl, withSocketQuery } from './voice-common';

interface Session {
  encoding: string;
  rate: number;
  channels: number;
  /** How many `transcript.done` end the session: one per channel when multichannel. */
  dones: number;
  file: string;
}

function sessionOf(recorded: CapturedRequest): Session {
  const request = withSocketQuery(recorded);
  const q = new Map(queryOf(request));
  const encoding = (q.get('encoding') ?? 'pcm').toLowerCase();
  const rate = Number(q.get('sample_rate') ?? 16000) || 16000;
  const channels = Math.max(1, Number(q.get('channels') ?? 1) || 1);
  const multichannel = q.get('multichannel') === 'true';
  const body = request.body as { filename?: unknown } | null;
  const file = typeof body?.filename === 'string' && body.filename.length > 0 ? body.filename : 'audio.wav';
  return { encoding, rate, channels, dones: multichannel ? channels : 1, file };
}

const OPUS: ExportResult = { unsupported: 'This session streamed Opus packets, which a snippet cannot cut from a file: record it with encoding=pcm (or mulaw/alaw) to export a loop.' };

function convertHint(s: Session): string {
  return `ffmpeg -i IN -ar ${s.rate} -ac ${s.channels} -c:a pcm_s16le audio.wav`;
}

export function sttSocketPython(recorded: CapturedRequest, opts: CodegenOptions = {}): string {
  const request = withSocketQuery(recorded);
  const s = sessionOf(request);
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    socketHeader(request, opts, '#'),
    '# Live transcription over the WebSocket: stream an audio file in 20 ms frames at real time,',
    `# print partials and finals. pip install websockets (13 or later), then: python3 snippet.py [${inComment(s.file)}]`,
    `# A WAV must be ${s.rate} Hz, ${s.channels} channel(s), 16-bit; convert one with: ${convertHint(s)}`,
    'import json, os, re, sys, threading, time, wave',
    'from websockets.sync.client import connect',
    '',
    `ENCODING, RATE, CHANNELS, DONES = ${pyLiteral(s.encoding)}, ${s.rate}, ${s.channels}, ${s.dones}`,
    `path = sys.argv[1] if len(sys.argv) > 1 else ${pyLiteral(s.file)}`,
    'if path.lower().endswith(".wav"):',
    '    with wave.open(path, "rb") as w:',
    '        if ENCODING != "pcm" or (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (RATE, CHANNELS, 2):',
    '            raise SystemExit(f"{path} is {w.getframerate()} Hz, {w.getnchannels()} channel(s), {8 * w.getsampwidth()}-bit; "',
    `                             f"this session takes {ENCODING} at {RATE} Hz, {CHANNELS} channel(s): ${convertHint(s).replace('IN', '{path}')}")`,
    '        audio = w.readframes(w.getnframes())',
    'else:',
    '    with open(path, "rb") as f:',
    '        audio = f.read()  # raw audio in the session\'s encoding',
    'FRAME = RATE * CHANNELS * (2 if ENCODING == "pcm" else 1) // 50  # 20 ms',
    `url = ${pyWsUrl(base, rest)}`,
    'headers = {',
    pyHeaderLines(request, opts),
    '}',
    'created = threading.Event()',
    'failure = []',
    '',
    'def receive(ws):',
    '    done = 0',
    '    for raw in ws:',
    '        message = json.loads(raw)',
    '        kind = message.get("type")',
    '        channel = f"[channel {message[\'channel_index\']}] " if "channel_index" in message else ""',
    '        if kind == "transcript.created":',
    '            created.set()',
    '        elif kind == "transcript.partial":',
    '            label = ("final" + (" (end of speech)" if message.get("speech_final") else "")) if message.get("is_final") else "partial"',
    '            print(f"{label}: {channel}{message[\'text\']}", flush=True)',
    '        elif kind == "transcript.done":',
    '            print(f"done: {channel}{message.get(\'text\', \'\')!r} duration {message.get(\'duration\')} s", flush=True)',
    '            done += 1',
    '            if done == DONES:',
    '                return',
    '        elif kind == "error":',
    '            failure.append(message.get("message") or str(message.get("error")))',
    '            created.set()',
    '            return',
    '    failure.append("the socket closed before transcript.done")',
    '    created.set()',
    '',
    'with connect(url, additional_headers=headers, max_size=None) as ws:',
    '    receiver = threading.Thread(target=receive, args=(ws,))',
    '    receiver.start()',
    '    if not created.wait(10) or failure:',
    '        raise SystemExit("error: " + (failure[0] if failure else "no transcript.created within 10 s"))',
    '    start = time.monotonic()',
    '    for n, at in enumerate(range(0, len(audio), FRAME)):',
    '        delay = start + n * 0.02 - time.monotonic()  # paced: one frame every 20 ms',
    '        if delay > 0:',
    '            time.sleep(delay)',
    '        ws.send(audio[at:at + FRAME])',
    '    ws.send(json.dumps({"type": "audio.done"}))',
    '    receiver.join()',
    'if failure:',
    '    raise SystemExit("error: " + failure[0])',
  );
}

export function sttSocketTypeScript(recorded: CapturedRequest, opts: CodegenOptions = {}): string {
  const request = withSocketQuery(recorded);
  const s = sessionOf(request);
  const { base, rest } = rootAndRest(request, opts);
  return lines(
    socketHeader(request, opts, '//'),
    '// Live transcription over the WebSocket: stream an audio file in 20 ms frames at real time,',
    `// print partials and finals. npm install ws, then: npx tsx snippet.mts [${inComment(s.file)}]`,
    `// A WAV must be ${s.rate} Hz, ${s.channels} channel(s), 16-bit; convert one with: ${convertHint(s)}`,
    'import { readFileSync } from "node:fs";',
    'import { setTimeout as sleep } from "node:timers/promises";',
    'import { WebSocket } from "ws";',
    '',
    `const ENCODING = ${stringLiteral(s.encoding)}, RATE = ${s.rate}, CHANNELS = ${s.channels}, DONES = ${s.dones};`,
    `const path = process.argv[2] ?? ${stringLiteral(s.file)};`,
    '',
    '/** The PCM of a WAV file (its fmt and data chunks), or null when the file is not one. */',
    'function wavPcm(buf: Buffer): { rate: number; channels: number; bits: number; data: Buffer } | null {',
    '  if (buf.toString("latin1", 0, 4) !== "RIFF" || buf.toString("latin1", 8, 12) !== "WAVE") return null;',
    '  let fmt: { rate: number; channels: number; bits: number } | null = null;',
    '  for (let at = 12; at + 8 <= buf.length; ) {',
    '    const id = buf.toString("latin1", at, at + 4);',
    '    const size = buf.readUInt32LE(at + 4);',
    '    const body = at + 8;',
    '    if (id === "fmt ") fmt = { channels: buf.readUInt16LE(body + 2), rate: buf.readUInt32LE(body + 4), bits: buf.readUInt16LE(body + 14) };',
    '    if (id === "data" && fmt) return { ...fmt, data: buf.subarray(body, Math.min(buf.length, body + size)) };',
    '    at = body + size + (size & 1);',
    '  }',
    '  throw new Error(`${path}: a WAV file without a fmt and data chunk`);',
    '}',
    '',
    'const file = readFileSync(path);',
    'const wav = wavPcm(file);',
    'if (wav && (ENCODING !== "pcm" || wav.rate !== RATE || wav.channels !== CHANNELS || wav.bits !== 16)) {',
    '  console.error(`${path} is ${wav.rate} Hz, ${wav.channels} channel(s), ${wav.bits}-bit; this session takes ${ENCODING} at ${RATE} Hz, ${CHANNELS} channel(s): ' +
      `${convertHint(s).replace('IN', '${path}')}\`);`,
    '  process.exit(1);',
    '}',
    'const audio = wav ? wav.data : file; // else raw audio in the session\'s encoding',
    'const FRAME = (RATE * CHANNELS * (ENCODING === "pcm" ? 2 : 1)) / 50; // 20 ms',
    '',
    `const ws = new WebSocket(${tsWsUrl(base, rest)}, {`,
    '  headers: {',
    tsHeaderLines(request, opts, '    '),
    '  },',
    '  maxPayload: 0,',
    '});',
    'let onCreated!: () => void;',
    'const created = new Promise<void>((resolve) => (onCreated = resolve));',
    'let dones = 0;',
    'const finished = new Promise<void>((resolve, reject) => {',
    '  ws.on("message", (data, isBinary) => {',
    '    if (isBinary || dones >= DONES) return; // nothing more is read once every channel is done',
    '    const message = JSON.parse(String(data));',
    '    const channel = message.channel_index !== undefined ? `[channel ${message.channel_index}] ` : "";',
    '    if (message.type === "transcript.created") onCreated();',
    '    else if (message.type === "transcript.partial") {',
    '      const label = message.is_final ? `final${message.speech_final ? " (end of speech)" : ""}` : "partial";',
    '      console.log(`${label}: ${channel}${message.text}`);',
    '    } else if (message.type === "transcript.done") {',
    '      console.log(`done: ${channel}${JSON.stringify(message.text ?? "")} duration ${message.duration} s`);',
    '      if (++dones === DONES) {',
    '        ws.close();',
    '        resolve();',
    '      }',
    '    } else if (message.type === "error") reject(new Error(`error: ${message.message ?? message.error}`));',
    '  });',
    '  ws.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode} on the upgrade`)));',
    '  ws.on("error", reject);',
    '  ws.on("close", (code, reason) => (dones >= DONES ? resolve() : reject(new Error(`closed ${code} ${reason} before transcript.done`))));',
    '});',
    'await Promise.race([created, finished]);',
    'const start = performance.now();',
    'for (let at = 0, n = 0; at < audio.length; at += FRAME, n++) {',
    '  const wait = start + n * 20 - performance.now(); // paced: one frame every 20 ms',
    '  if (wait > 0) await sleep(wait);',
    '  ws.send(audio.subarray(at, at + FRAME));',
    '}',
    'ws.send(JSON.stringify({ type: "audio.done" }));',
    'await finished;',
  );
}

/** WebSocket `/v1/stt`: Python (websockets) and TypeScript (ws); curl cannot hold a socket. */
export const STT_SOCKET_EXPORTER: CodeExporter = {
  curl: () => ({ unsupported: 'curl cannot hold a WebSocket conversation: choose Python or TypeScript.' }),
  python: (request, opts) => (sessionOf(request).encoding === 'opus' ? OPUS : { code: sttSocketPython(request, opts) }),
  typescript: (request, opts) => (sessionOf(request).encoding === 'opus' ? OPUS : { code: sttSocketTypeScript(request, opts) }),
  'python-sdk': () => NO_VOICE_SDK,
  'typescript-sdk': () => NO_VOICE_SDK,
};

/**
 * Event-socket benchmark (main/api/event-socket.ts): what the client's per-frame work costs — JSON
 * parse, zod validation, secret masking, audio summary for capture — and whether memory stays
 * flat. A plain ws server runs in a child process (so this process's CPU and RSS are the client's
 * alone) and sends realtime-style `response.output_audio.delta` messages (20 ms of 24 kHz PCM,
 * 1,280 base64 characters each) as fast as the socket takes them; the client reads them with
 * capture on (every frame summarised and handed to a callback) and off, in the same run. Then the
 * client sends 20 ms `input_audio_buffer.append` JSON frames and 100 ms binary PCM frames (3,200
 * bytes), each send awaited. Figures: client CPU µs per frame (user + system), frames per second,
 * and RSS growth over the longest run. `npx tsx test/bench/event-socket.ts [frames]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../main/api/client';
import { openEventSocket, type CapturedFrame, type EventSocket } from '../../main/api/event-socket';
import { parseRealtimeServerEvent, type RealtimeServerEvent } from '../../shared/wire/realtime';

const KEY = 'sk-bench-event-socket-key';
const MIB = 2 ** 20;

/** The server: on `{"go": n}` it sends n audio deltas (waiting while its buffer is over 1 MiB), then `{"type":"bench.done"}`. */
const SERVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
const delta = Buffer.alloc(960, 3).toString('base64');
wss.on('listening', () => console.log(wss.address().port));
wss.on('connection', (ws) => {
  let received = 0;
  ws.on('message', (data, isBinary) => {
    received++;
    if (isBinary) return;
    const m = JSON.parse(String(data));
    if (m.type === 'bench.count') return ws.send(JSON.stringify({ type: 'bench.count', received: received - 1 }));
    if (m.type !== 'bench.go') return;
    let i = 0;
    const pump = () => {
      while (i < m.n) {
        if (ws.bufferedAmount > 1048576) return setTimeout(pump, 1);
        ws.send('{"type":"response.output_audio.delta","event_id":"e' + i + '","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":"' + delta + '"}');
        i++;
      }
      ws.send('{"type":"bench.done"}');
    };
    pump();
  });
});
`;

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'], cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve) => lines.once('line', resolve));
  return { url: `http://127.0.0.1:${port.trim()}`, child };
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function open(client: ApiClient, capture: boolean): Promise<{ socket: EventSocket<RealtimeServerEvent>; frames: { n: number } }> {
  const frames = { n: 0 };
  const onFrame = capture ? (f: CapturedFrame): void => void (frames.n += f.bytes > 0 ? 1 : 0) : undefined;
  const r = await openEventSocket<RealtimeServerEvent>(client, '/v1/realtime', {
    parse: parseRealtimeServerEvent,
    onFrame,
    audio: { in: { codec: 'pcm', sampleRate: 24000 }, out: { codec: 'pcm', sampleRate: 24000 } },
  });
  if (!r.ok) throw new Error(r.error.message);
  return { socket: r.socket, frames };
}

interface Figure {
  frames: number;
  cpuMicrosPerFrame: number;
  framesPerSecond: number;
  captured: number;
}

async function receive(client: ApiClient, n: number, capture: boolean): Promise<Figure> {
  const { socket, frames } = await open(client, capture);
  const cpu0 = cpuMicros();
  const t0 = performance.now();
  await socket.sendJson({ type: 'bench.go', n });
  let got = 0;
  for (;;) {
    const e = await socket.next();
    if (!e || (e.kind === 'unknown' && e.message.type === 'bench.done')) break;
    if (e.kind === 'message') got++;
  }
  const ms = performance.now() - t0;
  const cpu = cpuMicros() - cpu0;
  await socket.close();
  if (got !== n) throw new Error(`received ${got} of ${n}`);
  return { frames: n, cpuMicrosPerFrame: Math.round((cpu / n) * 10) / 10, framesPerSecond: Math.round(n / (ms / 1000)), captured: frames.n };
}

async function send(client: ApiClient, n: number, capture: boolean, binary: boolean): Promise<Figure> {
  const { socket, frames } = await open(client, capture);
  const append = Buffer.alloc(960, 5).toString('base64');
  const pcm = Buffer.alloc(3200, 5);
  const cpu0 = cpuMicros();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = binary ? await socket.sendBinary(pcm) : await socket.sendJson({ type: 'input_audio_buffer.append', audio: append });
    if (!r.ok) throw new Error(r.error.message);
  }
  await socket.sendJson({ type: 'bench.count' });
  const ms = performance.now() - t0;
  const cpu = cpuMicros() - cpu0;
  for (;;) {
    const e = await socket.next();
    if (!e) throw new Error('closed');
    if (e.kind === 'unknown' && e.message.type === 'bench.count') {
      if (e.message.received !== n) throw new Error(`server got ${String(e.message.received)} of ${n}`);
      break;
    }
  }
  await socket.close();
  return { frames: n, cpuMicrosPerFrame: Math.round((cpu / n) * 10) / 10, framesPerSecond: Math.round(n / (ms / 1000)), captured: frames.n };
}

export async function run(frames = 20_000): Promise<Record<string, unknown>> {
  const { url, child } = await startServer();
  const client = new ApiClient({ baseUrl: url, apiKey: KEY });
  try {
    // Warm-up (JIT), not reported.
    await receive(client, 2000, true);
    await send(client, 2000, true, false);
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const receiveCaptured = await receive(client, frames * 5, true);
    clearInterval(sampler);
    const rssGrowthMiB = Math.round(((peak - rss0) / MIB) * 10) / 10;
    return {
      receiveAudioDeltas: { capture: receiveCaptured, noCapture: await receive(client, frames, false) },
      sendAppendJson: { capture: await send(client, frames, true, false), noCapture: await send(client, frames, false, false) },
      sendBinaryPcm: { capture: await send(client, frames, true, true), noCapture: await send(client, frames, false, true) },
      rss: { framesReceived: frames * 5, peakGrowthMiB: rssGrowthMiB },
    };
  } finally {
    await client.dispose();
    child.kill();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const n = Number(process.argv[2] ?? 20_000);
  void run(n).then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}

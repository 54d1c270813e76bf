/**
 * Sandbox text to speech, through HTTP and the WebSocket of a real sandbox: the eSpeak worker's
 * start, REST whole-file time, the WebSocket's time to the first audio.delta (from text.done and
 * from the first text.delta, with optimize_streaming_latency 0 and 1), same text, same run; and
 * the event loop's worst gap meanwhile (synthesis and MP3 encoding run in the worker: the sandbox
 * lives in the app's main process). `npx tsx test/bench/run.ts tts-sandbox` or
 * `npx tsx test/bench/tts-sandbox.ts`.
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { startSandbox } from '../../main/sandbox/index';
import { sharedEspeakEngine } from '../../main/sandbox/tts/espeak';

const KEY = 'sk-bench-tts';
const TEXT = 'Streaming speech should start quickly. The first sentence plays while the rest is made, and a long answer keeps going without a gap.';

function gapMonitor(): { stop(): number } {
  let max = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 2);
    last = now;
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      return Math.round(max);
    },
  };
}

async function streamOnce(url: string, osl: number): Promise<Record<string, number>> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/tts?language=en&optimize_streaming_latency=${osl}`, { headers: { authorization: `Bearer ${KEY}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const words = TEXT.split(/(?<= )/);
  const t0 = performance.now();
  let tDone = 0;
  let first = 0;
  const finished = new Promise<number>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string };
      if (m.type === 'audio.delta' && first === 0) first = performance.now();
      if (m.type === 'audio.done') resolve(performance.now());
    });
  });
  // Text arrives as a language model would send it: a word every 20 ms.
  for (const w of words) {
    ws.send(JSON.stringify({ type: 'text.delta', delta: w }));
    await new Promise((r) => setTimeout(r, 20));
  }
  ws.send(JSON.stringify({ type: 'text.done' }));
  tDone = performance.now();
  const end = await finished;
  ws.close();
  return { firstAudioFromFirstDeltaMs: Math.round(first - t0), firstAudioFromTextDoneMs: Math.round(first - tDone), wholeMs: Math.round(end - t0) };
}

export async function run(): Promise<Record<string, unknown>> {
  const sb = await startSandbox({ keys: [KEY] });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const post = async (body: Record<string, unknown>) => {
    const t = performance.now();
    const res = await fetch(`${sb.url}/v1/tts`, { method: 'POST', headers, body: JSON.stringify({ language: 'en', ...body }) });
    const json = (await res.json()) as { duration: number };
    return { ms: Math.round(performance.now() - t), audioSeconds: json.duration };
  };
  try {
    const start = await post({ text: 'Warm up.' });
    // After the warm-up: the worker's start and the first imports are not what a user feels later.
    const gaps = gapMonitor();
    const restMp3 = await post({ text: TEXT });
    const restPcm = await post({ text: TEXT, output_format: { codec: 'pcm', sample_rate: 24000 } });
    const stream0 = await streamOnce(sb.url, 0);
    const stream1 = await streamOnce(sb.url, 1);
    return {
      loadAverage1m: loadavg()[0],
      firstCallWithWorkerStartMs: start.ms,
      restMp3: restMp3,
      restPcm: restPcm,
      websocketMp3Osl0: stream0,
      websocketMp3Osl1: stream1,
      eventLoopMaxGapMs: gaps.stop(),
    };
  } finally {
    await sb.close();
    // Not waiting the 30 s the idle worker takes to stop.
    await sharedEspeakEngine().close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  void run().then(
    (r) => {
      process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}

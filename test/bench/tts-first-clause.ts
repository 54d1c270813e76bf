/**
 * Streaming speech's first audio when the text is sent whole (as the app sends it): from
 * `text.done` to the first `audio.delta` of the sandbox's WebSocket /v1/tts, and how many
 * characters that first chunk speaks. Synthesis starts at the first clause end (comma, semicolon,
 * colon, dash), not the first sentence end. `npx tsx test/bench/tts-first-clause.ts [runs]`;
 * SANDBOX_MODULE=<path to main/sandbox/index.ts> measures another checkout (before/after).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WebSocket } from 'ws';
import { runAlone } from './run-alone';

const KEY = 'sk-bench-first-clause';
const TEXT = 'When the whole answer arrives at once, the first clause can be spoken alone, and the rest of this rather long opening sentence follows while it plays. A second sentence ends it.';

async function once(url: string): Promise<{ ms: number; chars: number }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/tts?language=en&codec=pcm&sample_rate=24000&with_timestamps=true`, { headers: { authorization: `Bearer ${KEY}` } });
  await new Promise((ok, fail) => {
    ws.once('open', ok);
    ws.once('error', fail);
  });
  const first = new Promise<{ at: number; chars: number }>((ok) => {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { type: string; audio_timestamps?: { graph_chars: string[] } };
      if (m.type === 'audio.delta') ok({ at: performance.now(), chars: m.audio_timestamps?.graph_chars.length ?? 0 });
    });
  });
  const done = new Promise<void>((ok) => ws.on('message', (d) => (JSON.parse(String(d)) as { type: string }).type === 'audio.done' && ok()));
  ws.send(JSON.stringify({ type: 'text.delta', delta: TEXT }));
  ws.send(JSON.stringify({ type: 'text.done' }));
  const t0 = performance.now();
  const f = await first;
  await done;
  ws.close();
  return { ms: Math.round(f.at - t0), chars: f.chars };
}

export async function ttsFirstClause(runs = 5): Promise<Record<string, unknown>> {
  const path = process.env.SANDBOX_MODULE ? resolve(process.env.SANDBOX_MODULE) : resolve(import.meta.dirname, '../../main/sandbox/index.ts');
  const { startSandbox } = (await import(pathToFileURL(path).href)) as typeof import('../../main/sandbox/index');
  const sb = await startSandbox({ keys: [KEY] });
  try {
    await once(sb.url);
    const rows: Array<{ ms: number; chars: number }> = [];
    for (let i = 0; i < runs; i++) rows.push(await once(sb.url));
    const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
    return { sandbox: path, loadAverage: loadavg()[0], firstChunkChars: rows[0]!.chars, firstAudioFromTextDoneMs: ms, medianMs: ms[Math.floor(ms.length / 2)] };
  } finally {
    await sb.close();
  }
}

runAlone(import.meta, () => ttsFirstClause(Number(process.argv[2]) || undefined));

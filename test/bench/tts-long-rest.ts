/**
 * How long a long text takes as REST speech from the sandbox (`POST /v1/tts`, the answer only
 * when all of it is made): MP3 (lamejs) against PCM, at a few lengths, so the time of a
 * 60,000-character MP3 can be said (measured at the lengths given, fitted linearly beyond).
 * `npx tsx test/bench/tts-long-rest.ts [chars…]` (default 2000 6000).
 */
import { loadavg } from 'node:os';
import { runAlone } from './run-alone';
import { startSandbox } from '../../main/sandbox/index';

const KEY = 'sk-bench-tts-long';
const SENTENCES = [
  'The harbour was quiet in the early morning, and the boats rocked gently at their moorings.',
  'A gull called twice from the lighthouse; nobody answered it.',
  'By nine the market had opened, with fish, bread and flowers laid out under striped awnings.',
  'Visitors walked slowly along the quay - some taking photographs, others simply watching the tide.',
];

/** About `chars` characters of ordinary prose (whole sentences). */
export function proseOf(chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${SENTENCES[i % SENTENCES.length]} `;
  return out.slice(0, chars).trimEnd();
}

export async function ttsLongRest(lengths: number[] = [2000, 6000]): Promise<Record<string, unknown>> {
  const sb = await startSandbox({ keys: [KEY] });
  const rows: Array<{ chars: number; codec: string; ms: number; audioSeconds: number; bytes: number }> = [];
  try {
    const post = async (text: string, codec: 'mp3' | 'pcm') => {
      const t0 = performance.now();
      const res = await fetch(`${sb.url}/v1/tts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text, language: 'en', voice_id: 'eve', output_format: { codec, sample_rate: 24000 } }),
      });
      const body = (await res.json()) as { audio: string; duration: number };
      return { ms: Math.round(performance.now() - t0), audioSeconds: body.duration, bytes: Buffer.from(body.audio, 'base64').length };
    };
    await post('Warm up.', 'mp3');
    for (const chars of lengths) {
      const text = proseOf(chars);
      for (const codec of ['pcm', 'mp3'] as const) rows.push({ chars, codec, ...(await post(text, codec)) });
    }
  } finally {
    await sb.close();
  }
  const fit = (codec: string) => {
    const r = rows.filter((x) => x.codec === codec);
    if (r.length < 2) return null;
    const [a, b] = [r[0]!, r.at(-1)!];
    const perChar = (b.ms - a.ms) / (b.chars - a.chars);
    return { msPerChar: Math.round(perChar * 100) / 100, estimated60kMs: Math.round(a.ms + perChar * (60_000 - a.chars)), audioSecondsPerChar: Math.round((b.audioSeconds / b.chars) * 1000) / 1000 };
  };
  return { loadAverage: loadavg()[0], rows, fitPcm: fit('pcm'), fitMp3: fit('mp3') };
}

runAlone(import.meta, () => {
  const lengths = process.argv.slice(2).map(Number).filter((n) => n > 0);
  return ttsLongRest(lengths.length ? lengths : undefined);
});

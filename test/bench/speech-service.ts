/**
 * Speech through the app's own handlers (createApp, the embedded sandbox): REST's whole-file time
 * against the stream's time to first audio (from `text.done` on the socket's clock) and its whole
 * time, same text, alternating, with everything a run does (History record, the frames recorded,
 * the audio kept in the gallery). `npx tsx test/bench/speech-service.ts [runs]`.
 */
import { loadavg } from 'node:os';
import { SpeechFieldsSchema } from '../../shared/families/speech/contract';
import { startHarness } from '../integration/services/harness';

const TEXT = 'Streaming speech should start quickly. The first sentence plays while the rest is made, and a long answer keeps going without a gap.';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const h = await startHarness();
  const ctx = { sessionId: 'bench', signal: new AbortController().signal, streamId: 'b', emit: () => {} };
  const fields = SpeechFieldsSchema.parse({ text: TEXT, codec: 'pcm', sampleRate: 24000 });
  const rest: number[] = [];
  const first: number[] = [];
  const whole: number[] = [];
  try {
    // A first call of each starts the synthesiser's worker: not counted.
    await h.app.handlers.speech.synthesize(fields, ctx);
    await h.app.handlers.speech.stream(fields, ctx);
    for (let i = 0; i < runs; i++) {
      const r = await h.app.handlers.speech.synthesize(fields, ctx);
      rest.push(r.timings.totalMs);
      const s = await h.app.handlers.speech.stream(fields, ctx);
      first.push(s.timings.firstAudioMs ?? NaN);
      whole.push(s.timings.totalMs);
    }
  } finally {
    await h.close();
  }
  console.log(JSON.stringify({ runs, text: TEXT.length, loadavg: loadavg()[0]!.toFixed(2), restWholeMs: median(rest), streamFirstAudioMs: median(first), streamWholeMs: median(whole) }, null, 2));
}

void main();

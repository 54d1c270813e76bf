/**
 * The call console's event log (renderer/src/families/realtime/lib/event-log.ts) fed a 50,000-
 * event call as the sandbox sends it (per turn: speech events, 60 audio and 60 transcript deltas
 * interleaved, done; the microphone's appends every 20 ms), in bursts of one animation frame's
 * worth (the store draws at most once a frame): the longest time one frame's pushes plus the
 * view's work (rows(), a filter) took, the rows held and the heap used. The 50 ms long-task bound
 * of issue 16 is for the whole frame; this is the log's share. Reports; does not assert.
 * Run directly: npx tsx test/bench/realtime-event-log.ts
 */
import { EventLog, filterRows, type LogMessage } from '../../renderer/src/families/realtime/lib/event-log';

const EVENTS = 50_000;
/** Messages in one frame (16.7 ms) of a busy call: the appends and an answer's deltas. */
const PER_FRAME = 20;

function* call(): Generator<LogMessage> {
  let t = 0;
  let n = 0;
  for (let turn = 0; n < EVENTS; turn++) {
    const speech: LogMessage[] = [
      { t, direction: 'in', message: { type: 'input_audio_buffer.speech_started', audio_start_ms: t, item_id: `u${turn}` } },
      { t: t + 1, direction: 'in', message: { type: 'input_audio_buffer.speech_stopped', audio_end_ms: t + 900, item_id: `u${turn}` } },
      { t: t + 2, direction: 'in', message: { type: 'response.created', response: { id: `r${turn}` } } },
    ];
    for (const m of speech) {
      yield m;
      n++;
    }
    for (let d = 0; d < 60 && n < EVENTS; d++) {
      t += 20;
      yield { t, direction: 'out', message: { type: 'input_audio_buffer.append', audio: { bytes: 960 } } };
      yield { t, direction: 'in', message: { type: 'response.output_audio.delta', item_id: `a${turn}`, delta: { bytes: 4800 } } };
      yield { t, direction: 'in', message: { type: 'response.output_audio_transcript.delta', item_id: `a${turn}`, delta: `word${d} ` } };
      n += 3;
    }
    yield { t: t + 5, direction: 'in', message: { type: 'response.done', response: { id: `r${turn}`, status: 'completed', usage: { total_tokens: 120 } } } };
    n++;
    t += 500;
  }
}

export function run(): Record<string, unknown> {
  const log = new EventLog({ maxRows: 5_000 });
  const frames: number[] = [];
  let batch: LogMessage[] = [];
  const heap0 = process.memoryUsage().heapUsed;
  const flush = (): void => {
    const t0 = performance.now();
    for (const m of batch) log.push(m);
    const rows = log.rows();
    filterRows(rows, { text: 'audio' });
    frames.push(performance.now() - t0);
    batch = [];
  };
  for (const m of call()) {
    batch.push(m);
    if (batch.length === PER_FRAME) flush();
  }
  if (batch.length) flush();
  frames.sort((a, b) => a - b);
  const q = (p: number): number => Number(frames[Math.min(frames.length - 1, Math.ceil(p * frames.length) - 1)]!.toFixed(3));
  return {
    events: log.messages,
    rowsMade: log.droppedRows + log.size,
    rowsHeld: log.size,
    frames: frames.length,
    frameMs: { p50: q(0.5), p99: q(0.99), max: Number(frames.at(-1)!.toFixed(3)) },
    heapGrowthMiB: Number(((process.memoryUsage().heapUsed - heap0) / 1_048_576).toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(run(), null, 2));

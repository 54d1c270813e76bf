/**
 * Recording benchmark: a simulated call of N minutes (default 30) recorded through the real
 * SessionRecorder on a real data folder (WAL, synchronous=FULL), paced as fast as the machine
 * allows (the factor over real time is reported): every 20 ms the microphone's frame goes out
 * (16 kHz) with its audio event, the model's frame comes in (24 kHz) half the time, a transcript
 * delta comes in every 100 ms, and a turn's marks every 6 s. Reports the speed, main's RSS growth
 * over the session (sampled every simulated 30 s; the recording must not gather in memory),
 * how long close() takes to finalise both tracks, the stereo mix (16 kHz microphone resampled to 24 kHz), a timeline page read at the end
 * of the log, and that the recording and the event log are complete.
 * `npx tsx test/bench/recording.ts [minutes]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { HistoryService } from '../../main/services/history-service';
import { SessionRecorder } from '../../main/services/recording/session-recorder';
import { writeStereoMix } from '../../main/services/recording/stereo-mix';
import { tracksOfRun } from '../../main/store/audio-tracks';
import { BlobStore } from '../../main/store/blobs';
import { closeDatabase, openDatabase } from '../../main/store/db';

const MiB = 2 ** 20;

export async function run(options: { minutes?: number } = {}): Promise<Record<string, unknown>> {
  const minutes = options.minutes ?? 30;
  const dir = mkdtempSync(join(tmpdir(), 'wb-bench-rec-'));
  const db = openDatabase(join(dir, 'workbench.db'));
  const blobs = new BlobStore(join(dir, 'blobs'));
  let simulatedMs = 0;
  try {
    const rec = SessionRecorder.open(
      { db, blobs, tracksDir: join(dir, 'tracks'), clock: () => simulatedMs },
      {
        kind: 'realtime',
        run: {
          id: 'bench-call',
          createdAt: Date.now(),
          endpoint: 'chat.completions',
          model: 'svc-realtime',
          connectionId: 'sandbox',
          connectionName: 'Sandbox',
          isSandbox: true,
          request: { method: 'GET', url: 'ws://127.0.0.1/v1/realtime', headers: {}, body: null },
          promptText: '',
        },
      },
    );
    await rec.openTrack('out', { sampleRate: 16_000, name: 'microphone' });
    await rec.openTrack('in', { sampleRate: 24_000, name: 'model' });
    const mic = new Uint8Array(640);
    const model = new Uint8Array(960);
    for (let i = 0; i < mic.length; i += 2) mic[i] = i & 0xff;

    const frames = (minutes * 60_000) / 20;
    const rss: number[] = [];
    const heap: number[] = [];
    const buffers: number[] = [];
    const started = performance.now();
    let events = 0;
    for (let f = 0; f < frames; f++) {
      simulatedMs = f * 20;
      rec.audio('out', mic, { atMs: simulatedMs, frame: { data: '{"type":"input_audio_buffer.append"}' } });
      events++;
      if (f % 2 === 0) {
        rec.audio('in', model, { atMs: simulatedMs, frame: { event: 'response.output_audio.delta', data: `{"type":"response.output_audio.delta","n":${f}}` } });
        events++;
      }
      if (f % 5 === 0) {
        rec.event({ direction: 'in', kind: 'json', data: `{"type":"response.output_audio_transcript.delta","delta":"word${f} "}` });
        events++;
      }
      if (f % 300 === 0) {
        rec.mark('speech_stopped');
        rec.mark('first_audio', { t: simulatedMs + 180 });
      }
      // Let the flush timers and the event chunks run, as a live session's loop would.
      if (f % 50 === 0) await new Promise((r) => setImmediate(r));
      if (f % 1_500 === 0) {
        const m = process.memoryUsage();
        rss.push(m.rss);
        heap.push(m.heapUsed);
        buffers.push(m.arrayBuffers);
      }
    }
    const recordedIn = performance.now() - started;
    const closeStart = performance.now();
    await rec.close();
    const closeMs = performance.now() - closeStart;
    const mixStart = performance.now();
    const input = (direction: 'in' | 'out') => {
      const t = tracksOfRun(db, 'bench-call').find((r) => r.direction === direction)!;
      return { hash: t.hash!, sampleRate: t.sampleRate, channels: t.channels, frames: t.frames!, startMs: t.startMs };
    };
    const mix = await writeStereoMix(blobs, input('out'), input('in'));
    const mixMs = performance.now() - mixStart;
    rss.push(process.memoryUsage().rss);

    const history = new HistoryService(db, blobs);
    const session = await history.session('bench-call');
    const pageStart = performance.now();
    const page = history.timeline('bench-call', session.timelineTotal - 500, 500);
    const pageMs = performance.now() - pageStart;
    const tracks = tracksOfRun(db, 'bench-call');
    return {
      simulatedMinutes: minutes,
      speedOverRealTime: Number(((minutes * 60_000) / recordedIn).toFixed(1)),
      recordMs: Math.round(recordedIn),
      events,
      eventsStored: session.timelineTotal - session.marks.length,
      tracks: tracks.map((t) => ({ direction: t.direction, frames: t.frames, expectedSeconds: minutes * 60, seconds: t.frames! / t.sampleRate, bytes: t.bytes })),
      mix: { seconds: mix.frames / mix.sampleRate, ms: Math.round(mixMs) },
      rssMiB: { first: Math.round(rss[0] / MiB), max: Math.round(Math.max(...rss) / MiB), last: Math.round(rss[rss.length - 1] / MiB), growthDuringSession: Math.round((Math.max(...rss.slice(0, -1)) - rss[0]) / MiB) },
      heapUsedMiB: { first: Math.round(heap[0] / MiB), max: Math.round(Math.max(...heap) / MiB) },
      arrayBuffersMiB: { first: Math.round(buffers[0] / MiB), max: Math.round(Math.max(...buffers) / MiB) },
      closeMs: Math.round(closeMs),
      lastTimelinePageMs: Number(pageMs.toFixed(1)),
      lastTimelinePageItems: page.items.length,
    };
  } finally {
    closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const minutes = process.argv[2] ? Number(process.argv[2]) : undefined;
  void run({ minutes }).then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}

/**
 * `npm run bench`: runs every benchmark in turn and writes their figures to bench/results.json
 * (with the machine and time they were measured on). Benchmarks report; they never fail a build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

type Bench = { run(): Promise<Record<string, unknown>> };

const BENCHES: Record<string, () => Promise<Bench>> = {
  sseParse: () => import('./sse-parse'),
  audio: () => import('./audio'),
  history: () => import('./history'),
  'history-size': () => import('./history-size'),
  streamRender: () => import('./stream-render'),
  textStreams: () => import('./text-streams'),
  files: () => import('./files-list'),
  upload: () => import('./upload'),
  dropUpload: () => import('./drop-upload'),
  hugeError: () => import('./huge-error'),
  eventSocket: () => import('./event-socket'),
  startup: () => import('./startup'),
  'video-encode': () => import('./video-encode'),
  videoJobs: () => import('./video-jobs'),
  gallery: () => import('./gallery'),
  liveSessions: () => import('./live-sessions'),
  recording: () => import('./recording'),
  'stt-stream': () => import('./stt-stream'),
  mediaPlane: () => import('./media-plane'),
  nativeCapture: () => import('./native-capture'),
  liveTranscription: () => import('./live-transcription'),
  'tts-sandbox': () => import('./tts-sandbox'),
  'session-timeline': () => import('./session-timeline'),
  sipCall: () => import('./sip-call'),
  speechService: () => import('./speech-service'),
  realtimeCall: () => import('./realtime-call'),
  realtimeLongCall: () => import('./realtime-long-call'),
  realtimeEventLogChromium: () => import('./realtime-event-log-chromium'),
};

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const results: Record<string, unknown> = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  };
  for (const [name, load] of Object.entries(BENCHES)) {
    if (only.length > 0 && !only.includes(name)) continue;
    process.stderr.write(`bench ${name}...\n`);
    try {
      results[name] = await (await load()).run();
    } catch (error) {
      results[name] = { error: (error as Error).stack ?? String(error) };
    }
  }
  const dir = join(process.cwd(), 'bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, only.length > 0 ? `results-${only.join('-')}.json` : 'results.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\nwritten to ${file}\n`);
}

void main();

// Benchmark: a long live transcription through the whole path (page microphone in its own process
// -> media process -> /v1/stt of the app's embedded sandbox -> main's live kind and recording),
// paced faster than real time: LIVE_STT_MINUTES of audio (default 30) at LIVE_STT_FACTOR times
// real time (default 10: one 20 ms frame every 2 ms). The audio is eSpeak NG speech with pauses,
// looped. Figures:
// - RSS of main (this process; it also runs the embedded sandbox, which transcribes) and of the
//   media process, sampled every 2 s: after warm-up (10 % of the audio), max, and at the end;
//   growth = end - warm-up (the bound: <= 32 MiB each);
// - frames sent and dropped by the page's queue, utterances finalised, the recorded microphone
//   track's length against the audio sent, the event log's size, the run's status.
//
// Main's RSS includes the embedded sandbox (it transcribes in main's process), so mainHeap (after a
// gc when run with --expose-gc) is given too.
//
// Run alone: node --expose-gc --import tsx test/bench/run.ts liveTranscription   (LIVE_STT_MINUTES=5 for a short run)
import { readFileSync } from 'node:fs';
import type { SessionRecord, SessionTimelinePage } from '../../shared/contract/history';
import type { RunRecord } from '../../shared/contract/runs';
import { attachWindow, runMicClient, speechPcm, startLiveApp } from '../integration/live/harness';

const CTX = { sessionId: 'bench', signal: new AbortController().signal };
const MiB = 1024 * 1024;

function rssOf(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const mib = (n: number | null) => (n === null ? null : Math.round((n / MiB) * 10) / 10);

export async function run(): Promise<Record<string, unknown>> {
  const minutes = Number(process.env.LIVE_STT_MINUTES ?? 30);
  const factor = Number(process.env.LIVE_STT_FACTOR ?? 10);
  const totalFrames = Math.round((minutes * 60 * 1000) / 20);
  const env = await startLiveApp();
  try {
    const speech = await speechPcm(['The quick brown fox jumps over the lazy dog.', 'Live transcription keeps going for a long time.', 'Numbers like twenty three and forty two appear too.']);
    const id = await env.app.live.start('transcription', { query: { sample_rate: 16_000, interim_results: true, endpointing: 300 }, source: { kind: 'page' } }, { origin: 'window' });
    const win = await attachWindow(env.app, id, { keepChunks: false });
    const channel = await env.plane.channel();
    if (!channel.ok || channel.value.transport !== 'websocket') throw new Error(JSON.stringify(channel));
    const samples: Array<{ at: number; main: number; heap: number; media: number | null }> = [];
    const gc = (globalThis as { gc?: () => void }).gc;
    const started = performance.now();
    const sample = () => {
      gc?.();
      const m = process.memoryUsage();
      samples.push({ at: performance.now() - started, main: m.rss, heap: m.heapUsed, media: rssOf(env.plane.pid) });
    };
    const sampler = setInterval(sample, 2000);
    const mic = await runMicClient({ url: channel.value.url, token: channel.value.token, mic: win.state().streams.mic, pcm: speech, intervalMs: 20 / factor, totalFrames }, env.dataDir);
    const sendMs = performance.now() - started;
    await env.app.live.stop(id);
    clearInterval(sampler);
    sample();
    const state = win.state();
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const runRecord = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
    const timeline = (await env.app.handlers.history.timeline({ id: state.runId, offset: 0, limit: 1 }, CTX)) as SessionTimelinePage;
    const warm = samples.find((s) => s.at >= sendMs * 0.1) ?? samples[0];
    const last = samples[samples.length - 1];
    const track = session.tracks.find((t) => t.direction === 'out');
    return {
      audioMinutes: minutes,
      paceFactor: factor,
      wallSeconds: Math.round(sendMs / 100) / 10,
      achievedFactor: Math.round(((totalFrames * 20) / sendMs) * 10) / 10,
      framesSent: mic.sent,
      pageQueueDropped: mic.stats.queue.droppedFull + mic.stats.queue.droppedStale,
      utterances: state.channels[0]?.finals.filter((f) => f.utterance).length ?? 0,
      snapshotDroppedSegments: state.droppedSegments,
      windowGaps: win.gaps(),
      rssMiB: {
        main: { warm: mib(warm.main), max: mib(Math.max(...samples.map((s) => s.main))), end: mib(last.main), growth: mib(last.main - warm.main) },
        mainHeap: { gcBeforeEachSample: gc !== undefined, warm: mib(warm.heap), end: mib(last.heap), growth: mib(last.heap - warm.heap) },
        media: { warm: mib(warm.media), max: mib(Math.max(...samples.map((s) => s.media ?? 0))), end: mib(last.media), growth: warm.media !== null && last.media !== null ? mib(last.media - warm.media) : null },
      },
      recording: { runStatus: runRecord.status, trackSeconds: track?.durationMs != null ? Math.round(track.durationMs / 100) / 10 : null, audioSentSeconds: (mic.sent * 20) / 1000, timelineItems: timeline.total },
      samples: samples.length,
    };
  } finally {
    await env.close();
  }
}

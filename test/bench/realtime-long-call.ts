// Benchmark: a long realtime call through the whole path (main's `realtime` live kind -> the media
// process's realtime-call session -> the embedded sandbox's /v1/realtime, its server VAD and eSpeak
// answers -> main's conversation and recording), paced faster than real time as
// live-transcription.ts is: REALTIME_LONG_MINUTES of microphone audio (default 30) played by the
// file microphone at REALTIME_LONG_FACTOR times real time (default 10, at most 20). The audio is
// eSpeak NG questions with 6 s pauses (0.6 s of wall time at 10x: room for the answer's first audio), looped, so the sandbox answers turn after turn (the next
// question barges in on the answer, as a fast caller would). No output device (`none`): the
// answers are recorded, not played. Figures:
// - RSS of main (this process; it also runs the embedded sandbox, which detects turns and speaks)
//   and of the media process, sampled every 2 s: after warm-up (10 % of the call), max, and at the
//   end; growth = end - warm-up (the bound: <= 32 MiB each). mainHeap after a gc when run
//   with --expose-gc; the media process's heap after its last full collection (--trace-gc), to tell
//   a leak from a lazy heap;
// - the recording: the microphone track's length against the audio played, the model track's, the
//   stereo mix (channels, length); turns, responses, the run's status; the load average (`uptime`).
//
// Run alone: npx tsx test/bench/run.ts realtimeLongCall   (REALTIME_LONG_MINUTES=3 for a short run)
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { GalleryItem } from '../../shared/contract/gallery';
import type { SessionRecord } from '../../shared/contract/history';
import type { RunRecord } from '../../shared/contract/runs';
import type { RealtimeCallSnapshot } from '../../shared/realtime-call';
import { speechPcm, startLiveApp } from '../integration/live/harness';
import { attachCall, pollState } from '../integration/live/realtime-harness';
import { loadAverage } from './realtime-call';

const CTX = { sessionId: 'bench', signal: new AbortController().signal };
const MiB = 1024 * 1024;
const RATE = 24_000;

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

/** A mono PCM16 WAV of `seconds`, the cycle repeated (written piece by piece: it is ~86 MB for 30 min). */
function writeLongWav(path: string, cycle: Buffer, seconds: number): number {
  const bytes = Math.floor(seconds * RATE) * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes, 40);
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  for (let left = bytes; left > 0; left -= cycle.length) writeSync(fd, cycle, 0, Math.min(left, cycle.length));
  closeSync(fd);
  return (bytes / 2 / RATE) * 1000;
}

/** A WAV file's format and length from its header (the mix of a 30-minute call is too big to load for this). */
function wavInfo(path: string): { channels: number; sampleRate: number; seconds: number } | null {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(4096);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  let at = 12;
  let fmt: { channels: number; sampleRate: number } | null = null;
  while (at + 8 <= n) {
    const id = head.toString('ascii', at, at + 4);
    const size = head.readUInt32LE(at + 4);
    if (id === 'fmt ') fmt = { channels: head.readUInt16LE(at + 10), sampleRate: head.readUInt32LE(at + 12) };
    if (id === 'data' && fmt) return { ...fmt, seconds: Math.round((size / 2 / fmt.channels / fmt.sampleRate) * 10) / 10 };
    at += 8 + size + (size % 2);
  }
  return null;
}

export async function run(): Promise<Record<string, unknown>> {
  const minutes = Number(process.env.REALTIME_LONG_MINUTES ?? 30);
  const factor = Number(process.env.REALTIME_LONG_FACTOR ?? 10);
  // The media process logs its garbage collections (--trace-gc on its stdout, which becomes log
  // lines): its heap after each full collection tells a leak (it climbs) from a lazy heap (RSS up, live heap flat).
  const env = await startLiveApp({ mediaExecArgv: ['--trace-gc'] });
  let mediaLiveHeap: number | null = null;
  const readGcLines = () => {
    for (let i = 0; i < env.logs.length; ) {
      const line = env.logs[i]!;
      if (!/ms: (Scavenge|Mark-Compact|Mark-Sweep|Minor)/i.test(line)) {
        i++;
        continue;
      }
      const full = /Mark-(Compact|Sweep)[^\d]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(/i.exec(line);
      if (full) mediaLiveHeap = Number(full[2]) * MiB;
      env.logs.splice(i, 1);
    }
  };
  try {
    const cycle = await speechPcm(['Could you tell me something about the weather today', 'What time does the shop open tomorrow', 'Please read me the last message again'], RATE, 6000);
    const wavPath = join(env.dataDir, 'long-call.wav');
    const audioMs = writeLongWav(wavPath, cycle, minutes * 60);
    const { ref } = await env.app.userFiles.register(wavPath);
    let sourceEnded = false;
    env.plane.onEvent((e) => {
      if (e.type === 'session-event' && e.event === 'source-ended') sourceEnded = true;
    });

    const samples: Array<{ at: number; main: number; heap: number; media: number | null; mediaLiveHeap: number | null }> = [];
    const gc = (globalThis as { gc?: () => void }).gc;
    const started = performance.now();
    const sample = () => {
      gc?.();
      readGcLines();
      const m = process.memoryUsage();
      samples.push({ at: performance.now() - started, main: m.rss, heap: m.heapUsed, media: rssOf(env.plane.pid), mediaLiveHeap });
    };
    const loadAtStart = loadAverage();
    const id = await env.app.live.start('realtime', { microphone: { kind: 'file', ref, speed: factor }, output: { kind: 'none' } }, { origin: 'window' });
    // A console opens, sees the call live, and closes: the call goes on (a window that kept every
    // event would be this process's memory, not the call's).
    const win = await attachCall(env.app, id);
    await win.until(() => win.state().status === 'live', 'connected');
    win.attachment.detach();
    const sampler = setInterval(sample, 2000);
    const expectedWallMs = audioMs / factor;
    await new Promise<void>((done, fail) => {
      const deadline = setTimeout(() => fail(new Error('the file microphone did not end')), expectedWallMs * 3 + 60_000);
      const look = setInterval(() => {
        if (!sourceEnded) return;
        clearInterval(look);
        clearTimeout(deadline);
        done();
      }, 200);
    });
    const playMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, 3000)); // the last turn's answer
    const before = await pollState(win.attachment.snapshot, () => true, 'state');
    await env.app.live.stop(id);
    clearInterval(sampler);
    sample();
    const loadAtEnd = loadAverage();

    const state: RealtimeCallSnapshot = before;
    const session = (await env.app.handlers.history.session({ id: state.runId }, CTX)) as SessionRecord;
    const runRecord = (await env.app.handlers.history.get({ id: state.runId }, CTX)) as RunRecord;
    const kept = (await env.app.handlers.gallery.ofRun({ runId: state.runId }, CTX)) as GalleryItem[];
    const mix = kept[0] ? wavInfo(env.app.media.blobs.pathOf(kept[0].hash)) : null;
    const mic = session.tracks.find((t) => t.direction === 'out');
    const model = session.tracks.find((t) => t.direction === 'in');
    const warm = samples.find((s) => s.at >= playMs * 0.1) ?? samples[0]!;
    const last = samples[samples.length - 1]!;
    const secs = (ms: number | null | undefined) => (ms == null ? null : Math.round(ms / 100) / 10);
    return {
      audioMinutes: minutes,
      paceFactor: factor,
      wallSeconds: secs(playMs),
      achievedFactor: Math.round((audioMs / playMs) * 10) / 10,
      turns: state.turns.length,
      bargeIns: state.turns.filter((t) => t.bargedIn).length,
      turnsWithAnswerAudio: state.turns.filter((t) => t.marks.first_audio !== null).length,
      responses: state.usage.responses,
      transcriptEntries: state.transcript.length,
      lastError: state.lastError,
      rssMiB: {
        main: { warm: mib(warm.main), max: mib(Math.max(...samples.map((s) => s.main))), end: mib(last.main), growth: mib(last.main - warm.main) },
        mainHeap: { gcBeforeEachSample: gc !== undefined, warm: mib(warm.heap), end: mib(last.heap), growth: mib(last.heap - warm.heap) },
        media: { warm: mib(warm.media), max: mib(Math.max(...samples.map((s) => s.media ?? 0))), end: mib(last.media), growth: warm.media !== null && last.media !== null ? mib(last.media - warm.media) : null },
        mediaHeapAfterFullGc: { warm: mib(warm.mediaLiveHeap), end: mib(last.mediaLiveHeap), growth: warm.mediaLiveHeap !== null && last.mediaLiveHeap !== null ? mib(last.mediaLiveHeap - warm.mediaLiveHeap) : null },
      },
      recording: {
        runStatus: runRecord.status,
        audioPlayedSeconds: secs(audioMs),
        micTrackSeconds: secs(mic?.durationMs),
        modelTrackSeconds: secs(model?.durationMs),
        stereoMix: mix,
        marks: session.marks.length,
      },
      samples: samples.length,
      loadAverage: { atStart: loadAtStart, atEnd: loadAtEnd },
    };
  } finally {
    await env.close();
  }
}

/**
 * The audio layer's timing on the **paced device** (main/audio/paced-backend.ts: timer-driven,
 * because the ALSA file device is not paced), in this one Node process:
 * - capture: interval between 20 ms frames (48 kHz stereo device -> 16 kHz mono), jitter =
 *   |interval - 20 ms|, over 10 s; once with this thread idle, once with it blocked 200 ms every
 *   second (what capture on main's thread would suffer; the media process exists to avoid it);
 * - playback: from enqueue() of a first delta to the device write that carries it;
 * - flush(): from the call to the last audible sample the device played, with a device that can
 *   drop its queue (the paced device) and one that cannot (as naudiodon: its 2 queued periods play out).
 * `npx tsx test/bench/audio.ts`, or `npx tsx test/bench/run.ts audio`.
 */
import { fileURLToPath } from 'node:url';
import { Capture } from '../../main/audio/capture';
import { createPacedBackend } from '../../main/audio/paced-backend';
import { Playback } from '../../main/audio/playback';
import type { AudioBackend, OutputStream } from '../../main/audio/types';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentiles(values: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return { n: sorted.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted[sorted.length - 1]) };
}

/** Blocks this thread for `ms` every second while `running()`. */
function blocker(ms: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      /* busy */
    }
  }, 1000);
  return () => clearInterval(timer);
}

async function captureJitter(seconds: number, blockMs: number): Promise<Record<string, unknown>> {
  const source = new Int16Array(48000 * 2 * (seconds + 1));
  for (let i = 0; i < source.length; i++) source[i] = Math.round(8000 * Math.sin(i / 40));
  const backend = createPacedBackend({ inputs: [{ name: 'mic', sampleRate: 48000, channels: 2, source }] });
  const times: number[] = [];
  const stopBlocking = blockMs > 0 ? blocker(blockMs) : () => {};
  const started = Capture.start({ backend, sampleRate: 16000, deviceChannels: 2, stallMs: 5000, onFrame: (f) => times.push(f.capturedAt) });
  if (!started.ok) throw new Error(started.error.message);
  await sleep(seconds * 1000);
  stopBlocking();
  await started.value.dispose();
  const intervals = times.slice(1).map((t, i) => t - times[i]);
  return {
    frames: times.length,
    expectedFrames: seconds * 50,
    intervalMs: percentiles(intervals),
    jitterMs: percentiles(intervals.map((d) => Math.abs(d - 20))),
  };
}

/** Wraps a backend so each output write is timestamped with whether it carried audio. */
function watchWrites(backend: AudioBackend, onWrite: (at: number, audible: boolean) => void): AudioBackend {
  return {
    ...backend,
    openOutput(options) {
      const opened = backend.openOutput(options);
      if (!opened.ok) return opened;
      const inner: OutputStream = opened.value;
      const wrapped: OutputStream = {
        device: inner.device,
        sampleRate: inner.sampleRate,
        channels: inner.channels,
        write: (pcm) => {
          onWrite(performance.now(), pcm.some((s) => s !== 0));
          return inner.write(pcm);
        },
        get pendingFrames() {
          return inner.pendingFrames;
        },
        discard: () => inner.discard(),
        onError: (l) => inner.onError(l),
        close: () => inner.close(),
      };
      return { ok: true, value: wrapped };
    },
  };
}

async function firstWrite(rounds: number, deltaMs: number, targetDepthMs: number): Promise<Record<string, unknown>> {
  let waitingSince: number | null = null;
  const latencies: number[] = [];
  const backend = watchWrites(createPacedBackend({ outputs: [{ name: 'speaker', sampleRate: 48000, channels: 2 }] }), (at, audible) => {
    if (audible && waitingSince !== null) {
      latencies.push(at - waitingSince);
      waitingSince = null;
    }
  });
  const opened = Playback.open({ backend, sourceRate: 24000, targetDepthMs });
  if (!opened.ok) throw new Error(opened.error.message);
  const playback = opened.value;
  const delta = new Int16Array((24000 * deltaMs) / 1000).fill(3000);
  await sleep(200);
  for (let i = 0; i < rounds; i++) {
    await sleep(50 + Math.random() * 20); // land anywhere in the device's period
    playback.markItem();
    waitingSince = performance.now();
    playback.enqueue(delta);
    playback.end();
    while (waitingSince !== null) await sleep(1);
    await sleep(deltaMs + 20);
    playback.flush();
  }
  await playback.dispose();
  return { deltaMs, targetDepthMs, enqueueToDeviceWriteMs: percentiles(latencies) };
}

async function flushToSilence(rounds: number, canDiscard: boolean): Promise<Record<string, unknown>> {
  let lastAudibleAt = 0;
  const backend = createPacedBackend({
    outputCanDiscard: canDiscard,
    outputs: [{ name: 'speaker', sampleRate: 48000, channels: 2, onPlayed: (pcm, at) => pcm.some((s) => s !== 0) && (lastAudibleAt = at) }],
  });
  const opened = Playback.open({ backend, sourceRate: 48000, targetDepthMs: 40 });
  if (!opened.ok) throw new Error(opened.error.message);
  const playback = opened.value;
  const silenceAfter: number[] = [];
  const callMs: number[] = [];
  const heard: number[] = [];
  for (let i = 0; i < rounds; i++) {
    playback.markItem();
    playback.enqueue(new Int16Array(48000).fill(3000)); // 1 s of audio
    await sleep(150 + Math.random() * 100);
    const t0 = performance.now();
    heard.push(playback.flush());
    callMs.push(performance.now() - t0);
    await sleep(150);
    silenceAfter.push(Math.max(0, lastAudibleAt - t0));
  }
  await playback.dispose();
  return { device: canDiscard ? 'drops its queue (paced)' : 'cannot drop its queue (as naudiodon)', flushCallMs: percentiles(callMs), flushToSilenceMs: percentiles(silenceAfter), heardMs: percentiles(heard) };
}

export async function run(): Promise<Record<string, unknown>> {
  return {
    device: 'paced (timer-driven, main/audio/paced-backend.ts), not a sound card',
    captureIdle: await captureJitter(10, 0),
    captureSameThreadBlocked200msPerSecond: await captureJitter(10, 200),
    playbackFirstWrite: [await firstWrite(30, 100, 60), await firstWrite(30, 20, 20)],
    flush: [await flushToSilence(20, true), await flushToSilence(20, false)],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  void run().then((r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`));
}

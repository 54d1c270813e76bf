/**
 * Speech through the app's own handlers (createApp, the embedded sandbox) played through the
 * media process's `speech-output` session, as the Speech view's native output does. Same text,
 * same run, REST and the WebSocket alternating:
 * - REST's whole-file time (the request until the file is there), and to its first sample on the device;
 * - the stream: from `text.done` and from the first `text.delta` (both on main's clock, from the
 *   run's recorded frames) to the first sample written to the output device;
 * - first `audio.delta` received in main -> its first sample written to the device (and the part
 *   of that inside the media process);
 * - Stop: `flush()` -> silence, on the paced device (main/audio's timer-driven device, set up like
 *   naudiodon's output: 20 ms periods, two queued, nothing taken back), and on naudiodon itself
 *   through a paced card (ALSA's file plugin into a FIFO read in real time: test/audio/fifo-sink.py):
 *   from the media process's flush() to the last non-silent sample the card played (stopNative).
 *   `npx tsx test/bench/speech-service.ts 7 stopNative` runs only that part.
 * "The device" for the first three is ALSA's `file` plugin through naudiodon/PortAudio (a real
 * native stream; not paced, so a write is taken at once and the figure is the app's own path).
 * `npx tsx test/bench/run.ts speechService`, or `npx tsx test/bench/speech-service.ts [runs]`.
 */
import { loadavg } from 'node:os';
import { INTERRUPTIBLE_OUTPUT } from '../../main/audio/playback';
import { recordedEvents } from '../integration/services/harness';
import { FIFO_BYTES_PER_SECOND, startSpeechOutputHarness, type SinkChange, type SpeechOutputHarness, type Spoken } from '../audio/speech-output-harness';

async function waitFor(check: () => boolean, ms = 3000): Promise<void> {
  for (const end = performance.now() + ms; !check(); ) {
    if (performance.now() > end) throw new Error('timed out waiting for the card');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const TEXT = 'Streaming speech should start quickly. The first sentence plays while the rest is made, and a long answer keeps going without a gap.';
const FIELDS = { text: TEXT, codec: 'pcm' as const, sampleRate: 24000 };

function stats(values: number[]): { p50: number; p95: number; max: number; n: number } {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), max: at(1), n: s.length };
}

type Backend = 'native' | 'paced';

interface FirstSample {
  restWhole: number[];
  restToDevice: number[];
  streamFirstAudio: number[];
  fromTextDone: number[];
  fromTextDelta: number[];
  deltaToWrite: number[];
  inMedia: number[];
  firstDeltaMs: number[];
}

/** REST and the stream alternating, `runs` times each, played on `backend`. */
async function firstSamples(s: SpeechOutputHarness, mainPerf: (media: number) => number, backend: Backend, runs: number): Promise<FirstSample> {
  const out: FirstSample = { restWhole: [], restToDevice: [], streamFirstAudio: [], fromTextDone: [], fromTextDelta: [], deltaToWrite: [], inMedia: [], firstDeltaMs: [] };
  const output = { codec: 'pcm' as const, sampleRate: 24000, backend };
  const firstWrite = (spoken: Spoken): number => {
    const e = spoken.events.find((x) => x.type === 'first-write');
    if (!e || e.type !== 'first-write') throw new Error('no first-write event');
    out.inMedia.push(e.writtenAt - (e.arrivedAt ?? NaN));
    return mainPerf(e.writtenAt);
  };
  for (let i = 0; i < runs; i++) {
    const rest = await s.speak('rest', FIELDS, output);
    out.restWhole.push(rest.result.timings.totalMs);
    // The file is there when main hands it on: the request's start is that minus its whole time.
    out.restToDevice.push(firstWrite(rest) - (rest.firstAudioInMainAt! - rest.result.timings.totalMs));

    const stream = await s.speak('stream', FIELDS, output);
    const written = firstWrite(stream);
    const received = stream.firstAudioInMainAt!;
    out.deltaToWrite.push(written - received);
    out.streamFirstAudio.push(stream.result.timings.firstAudioMs ?? NaN);
    // Recorded frames carry ms since the run's start (t0); the first chunk came ttfbMs after it.
    const t0 = received - stream.result.timings.ttfbMs!;
    const frames = await recordedEvents(s.h.app, stream.result.runId);
    const delta = frames.find((f) => f.direction === 'out' && f.event === 'text.delta');
    const done = frames.find((f) => f.direction === 'out' && f.event === 'text.done');
    out.fromTextDone.push(written - (t0 + (done?.t ?? NaN)));
    out.fromTextDelta.push(written - (t0 + (delta?.t ?? NaN)));
    out.firstDeltaMs.push(stream.firstChunkBytes / 48);
  }
  return out;
}

function report(f: FirstSample): Record<string, unknown> {
  return {
    restWholeMs: stats(f.restWhole),
    restRequestToFirstDeviceSampleMs: stats(f.restToDevice),
    streamFirstAudioFromTextDoneMs: stats(f.streamFirstAudio),
    streamTextDoneToFirstDeviceSampleMs: stats(f.fromTextDone),
    streamFirstTextDeltaToFirstDeviceSampleMs: stats(f.fromTextDelta),
    firstAudioDeltaInMainToDeviceWriteMs: stats(f.deltaToWrite),
    firstAudioInMediaToDeviceWriteMs: stats(f.inMedia),
    firstDeltaAudioMs: stats(f.firstDeltaMs),
  };
}

const NATIVE_STOP_DEVICE =
  'naudiodon/PortAudio -> ALSA plug (48 kHz stereo S16 widened to 16 channels of S32, 3 MB/s) -> file plugin -> FIFO read in real time by test/audio/fifo-sink.py (its two-page pipe holds up to 2.7 ms: with one page the card ran dry at every page, see fifo-sink.py)';
/** The app's own output settings under test (Playback opened with INTERRUPTIBLE_OUTPUT, as Speech and the realtime console do). */
const NATIVE_STOP_OUTPUT = `Playback with INTERRUPTIBLE_OUTPUT: ${INTERRUPTIBLE_OUTPUT.periodMs} ms writes, ${INTERRUPTIBLE_OUTPUT.deviceQueuePeriods} queued, lowLatency (PortAudio callbacks of 56 frames at 48 kHz: its ALSA buffer 448 frames = 9.3 ms, period 112; test/audio/pa-buffer-probe.c), a ${INTERRUPTIBLE_OUTPUT.flushTailMs} ms silence write after a flush`;
const NATIVE_STOP_MEASURED =
  "flushToLastSoundMs: from the media process's flush() (CLOCK_MONOTONIC, just before Playback.flush()) to the last non-silent sample the card played before the device closed, timed to the sample within its read; rigPipeAtLastSoundMs: what sat in the card's pipe then (the rig's own buffer, part of the figure); mainStopToLastSoundMs: from main sending Stop; answeredPlayedMs: the ms heard flush() answered; cardSoundMs: the card's own count from the first sound to the last; answeredLessCardAndLeadMs: answered less that and the speech's leading zeros (0 when exact, up to the zeros at the cut); underrunMsPerRun: audio the card wanted and did not get in time while the speech played (a busy writer), per run; underrunAfterFlushPerRunMs: the same from the flush to the last sound, flushToLastSoundNoUnderrunMs the stops that had none, and flushToLastSoundLessUnderrunAfterFlushMs each stop less its starved time (an estimate of what a card would do: its DMA plays on while the writer is late). The file plugin lets a sample out only when later ones push it, so a writer starved after the flush stretches these figures where a card's DMA would not";

/** `only: 'stopNative'` runs just that part (while working on the flush); the bench runs everything. */
export async function run(runs = 7, only?: 'stopNative'): Promise<Record<string, unknown>> {
  const s = await startSpeechOutputHarness({ fifo: true });
  const load = [loadavg()[0]!];
  const flushToSilence: number[] = [];
  const flushInMedia: number[] = [];
  const nativeStopToSilence: number[] = [];
  const nativeFlushToSilence: number[] = [];
  const nativeInPipe: number[] = [];
  const nativePlayedVsHeard: number[] = [];
  const nativeUnderrun: number[] = [];
  const nativeUnderrunAfterFlush: number[] = [];
  const nativeCardHeard: number[] = [];
  const nativeLead: number[] = [];
  const firstSoundOf = (changes: SinkChange[]): number | null => changes.find((c) => c.what === 'sound')?.position ?? null;
  let cardScheduling = 'unknown';
  let paced: FirstSample | null = null;
  let file: FirstSample | null = null;
  try {
    const clock = await s.plane.syncClock(9);
    if (!clock) throw new Error('no clock estimate from the media process');
    // Media-process clock -> main's performance.now().
    const mainPerf = (media: number): number => media - clock.offset - performance.timeOrigin;
    // The first call of each starts the synthesiser's worker and the decoders: not counted.
    await firstSamples(s, mainPerf, 'paced', 1);
    if (only !== 'stopNative') {
      paced = await firstSamples(s, mainPerf, 'paced', runs);
      load.push(loadavg()[0]!);
      file = await firstSamples(s, mainPerf, 'native', runs);
      load.push(loadavg()[0]!);
      for (let i = 0; i < runs; i++) {
        const stopped = await s.speak('stream', FIELDS, { codec: 'pcm', sampleRate: 24000, backend: 'paced' }, { stopAfterMs: 400 + 100 * i });
        const silence = stopped.events.find((e) => e.type === 'silence');
        if (!stopped.stopped || !silence || silence.type !== 'silence') throw new Error('no silence after Stop');
        flushToSilence.push(mainPerf(silence.silentAt) - stopped.stopped.at);
        flushInMedia.push(silence.silentAt - silence.flushedAt);
      }
      load.push(loadavg()[0]!);
    }

    // Stop on naudiodon itself, through the paced FIFO card: flush() -> the card's last non-silent sample.
    const monoMinusPerf = Number(process.hrtime.bigint()) / 1e6 - performance.now();
    for (let i = 0; i < runs; i++) {
      const before = s.sinkLog().length;
      const stopped = await s.speak('stream', FIELDS, { codec: 'pcm', sampleRate: 24000, device: 'ALSA:fifoplay' }, { stopAfterMs: 400 + 100 * i });
      const flushed = stopped.events.find((e) => e.type === 'flushed');
      if (!stopped.stopped || !flushed || flushed.type !== 'flushed') throw new Error('the FIFO run was not stopped');
      // The session closes the device after a flush: its changes end with the card's `closed`.
      await waitFor(() => s.sinkLog().slice(before).some((c) => c.what === 'closed'));
      const flushNs = BigInt(flushed.monotonicNs);
      const changes = s.sinkLog().slice(before);
      const closed = changes.findIndex((c) => c.what === 'closed' && c.ns > flushNs);
      const heard = changes.slice(0, closed).filter((c) => c.what === 'sound' || c.what === 'silence');
      const lastSilence = heard.at(-1);
      if (!lastSilence || lastSilence.what !== 'silence') throw new Error('the card never fell silent after the flush');
      nativeFlushToSilence.push(Math.max(0, Number(lastSilence.ns - flushNs) / 1e6));
      nativeInPipe.push((lastSilence.inPipe * 1000) / FIFO_BYTES_PER_SECOND);
      nativeStopToSilence.push(Number(lastSilence.ns) / 1e6 - (stopped.stopped.at + monoMinusPerf));
      nativePlayedVsHeard.push(flushed.playedMs);
      // The card's own count: from the speech's first sound to its last (leading and trailing zeros of the speech are not in it).
      nativeCardHeard.push(firstSoundOf(changes) === null ? NaN : ((lastSilence.position - firstSoundOf(changes)!) * 1000) / FIFO_BYTES_PER_SECOND);
      // The speech's leading zeros (pcm 24 kHz): heard, but silent, so not in the card's count.
      const pcm = new Int16Array(stopped.audio.buffer.slice(stopped.audio.byteOffset, stopped.audio.byteOffset + (stopped.audio.byteLength & ~1)));
      nativeLead.push((Math.max(0, pcm.findIndex((v) => v !== 0)) * 1000) / 24000);
      // Underruns while the speech played (from its first sound to its last), not while the device opened or closed.
      const firstSound = changes.find((c) => c.what === 'sound');
      nativeUnderrun.push(((lastSilence.underrunBytes - (firstSound?.underrunBytes ?? 0)) * 1000) / FIFO_BYTES_PER_SECOND);
      // Underruns between the flush and the last sound (a starved writer): each episode is logged,
      // so the count at the last line before the flush is the count then (or just before an episode under way: an upper bound).
      const beforeFlush = changes.filter((c) => c.ns <= flushNs).at(-1);
      nativeUnderrunAfterFlush.push(((lastSilence.underrunBytes - (beforeFlush?.underrunBytes ?? 0)) * 1000) / FIFO_BYTES_PER_SECOND);
    }
    load.push(loadavg()[0]!);
    cardScheduling = s.sinkScheduling();
  } finally {
    await s.close();
  }
  return {
    runs,
    text: TEXT.length,
    format: 'pcm 24 kHz mono -> device 48 kHz stereo',
    loadavg1m: load.map((l) => l.toFixed(2)),
    ...(paced && file
      ? {
          pacedDevice: { device: 'paced (main/audio timer-driven, 20 ms periods, 2 queued), in the media process', ...report(paced) },
          alsaFileDevice: { device: 'ALSA file plugin via naudiodon/PortAudio in the media process (not paced: the player writes silence as fast as it is taken)', ...report(file) },
        }
      : {}),
    ...(flushToSilence.length > 0
      ? {
          stop: {
            device: 'paced, set up like naudiodon: 20 ms periods, 2 queued, nothing taken back',
            stopToSilenceMs: stats(flushToSilence),
            flushInMediaToSilenceMs: stats(flushInMedia),
          },
        }
      : {}),
    stopNative: {
      device: NATIVE_STOP_DEVICE,
      output: NATIVE_STOP_OUTPUT,
      cardScheduling: cardScheduling,
      measured: NATIVE_STOP_MEASURED,
      flushToLastSoundMs: stats(nativeFlushToSilence),
      rigPipeAtLastSoundMs: stats(nativeInPipe),
      mainStopToLastSoundMs: stats(nativeStopToSilence),
      answeredPlayedMs: nativePlayedVsHeard,
      cardSoundMs: nativeCardHeard.map((v) => Math.round(v * 10) / 10),
      answeredLessCardAndLeadMs: nativePlayedVsHeard.map((v, i) => Math.round((v - nativeCardHeard[i]! - nativeLead[i]!) * 10) / 10),
      underrunMsPerRun: nativeUnderrun.map((u) => Math.round(u)),
      flushToLastSoundPerRunMs: nativeFlushToSilence.map((v) => Math.round(v * 10) / 10),
      underrunAfterFlushPerRunMs: nativeUnderrunAfterFlush.map((u) => Math.round(u * 10) / 10),
      flushToLastSoundLessUnderrunAfterFlushMs: stats(nativeFlushToSilence.map((v, i) => Math.max(0, v - nativeUnderrunAfterFlush[i]!))),
      flushToLastSoundNoUnderrunMs: nativeUnderrunAfterFlush.some((u) => u === 0) ? stats(nativeFlushToSilence.filter((_, i) => nativeUnderrunAfterFlush[i] === 0)) : 'every stop had an underrun after its flush',
    },
  };
}

if (process.argv[1]?.endsWith('speech-service.ts')) {
  void run(Number(process.argv[2] ?? 7), process.argv[3] === 'stopNative' ? 'stopNative' : undefined).then((r) => console.log(JSON.stringify(r, null, 2)));
}
